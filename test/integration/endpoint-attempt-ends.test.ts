// The ends of outbound attempts (a concurrency slot given back, the attempt counted in its endpoint's
// health): those of one event-loop tick go to Redis in one call, across endpoints, and each still gets
// its own answer (false for a holder whose slot was already gone) and its own endpoint's counts.
import { afterEach, expect, it, vi } from "vitest";
import { InflightGate } from "../../src/delivery/inflight-gate.ts";
import { EndpointStatsStore } from "../../src/store/endpoint-stats.ts";
import { scratchPrefix } from "../support/test-gateway.ts";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

it("ends the attempts of one tick in one call, each with its own slot and counts", async () => {
  const { keys, redis, cleanup } = scratchPrefix();
  cleanups.push(cleanup);
  const inflight = new InflightGate(redis, (id) => keys.endpointGate(id, "inflight"));
  const stats = new EndpointStatsStore(redis, keys);
  for (const [id, holder] of [
    ["ep_a", "a1"],
    ["ep_a", "a2"],
    ["ep_b", "b1"],
  ] as const)
    expect((await inflight.acquire(id, holder, 4, 60_000)).ok).toBe(true);

  const evalsha = vi.spyOn(redis, "evalsha");
  const at = Date.now();
  const ended = await Promise.all([
    stats.endAttempt("ep_a", "a1", { ok: true, at, durationMs: 12, outcome: "200" }),
    stats.endAttempt("ep_a", "a2", { ok: false, at: at + 1, durationMs: 40, outcome: "503" }),
    stats.endAttempt("ep_b", "b1", { ok: true, at, durationMs: 5, outcome: "204" }),
    stats.endAttempt("ep_b", "gone", { ok: false, at, durationMs: 9000, outcome: "timeout" }),
  ]);
  expect(ended).toEqual([true, true, true, false]);
  expect(evalsha).toHaveBeenCalledTimes(1);

  expect(await redis.zcard(keys.endpointGate("ep_a", "inflight"))).toBe(0);
  expect(await redis.zcard(keys.endpointGate("ep_b", "inflight"))).toBe(0);
  const a = await stats.read("ep_a", at + 1);
  const b = await stats.read("ep_b", at + 1);
  expect(a.last_hour).toMatchObject({ attempts: 2, successes: 1 });
  expect(a.last_status).toBe(503);
  expect(b.last_hour).toMatchObject({ attempts: 2, successes: 1 });
  expect(b.last_status).toBe("timeout");
});

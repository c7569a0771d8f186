// A replay of 1,000 dead hooks at 200/s: it takes at least 5 s (rate-limited), every delivery carries
// the replay id, and each hook reaches the (now fixed) receiver exactly once.
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Receiver } from "../support/receiver.ts";
import { type ReceiverGateway, startReceiverGateway } from "../support/receiver-gateway.ts";
import { type TestGateway, eventually } from "../support/test-gateway.ts";
import { admin, deadHooks, dlqSize, replayState } from "./admin-fixtures.ts";

const N = 1000;
let rx: Receiver;
let gw: TestGateway;
let env: ReceiverGateway;

beforeAll(async () => {
  env = await startReceiverGateway({ fallback: 410, dispatch: { concurrency: 32 } });
  ({ rx, gw } = env);
});

afterAll(async () => {
  await env?.stop();
});

it("replays 1,000 dead hooks at 200/s: ≥ 5 s, each exactly once, each with the replay id", async () => {
  const ids = await deadHooks(gw, "src", N);
  expect(rx.requests).toHaveLength(N); // 410 is permanent: one attempt each
  const deadAttempts = rx.requests.length;

  rx.setFallback(200);
  const started = Date.now();
  const created = await admin(gw, "POST", "/v1/replays", {
    body: { filter: { source: "src" }, rate_per_s: 200 },
  });
  expect(created.status).toBe(202);
  const replayId = created.json.id as string;
  expect(created.json).toMatchObject({ state: "running", rate_per_s: 200, total_estimate: N });

  // Midway the counters move, but no faster than the rate allows.
  const mid = await eventually(async () => {
    const r = await admin(gw, "GET", `/v1/replays/${replayId}`);
    return r.json.moved >= 300 ? { ...r.json, at: Date.now() } : undefined;
  });
  expect(mid.moved).toBeLessThanOrEqual(((mid.at - started) / 1000) * 200 + 20);

  const done = await replayState(gw, replayId, "done", 30_000);
  const elapsed = Date.now() - started;
  expect(elapsed).toBeGreaterThanOrEqual(5000);
  expect(done).toMatchObject({ matched: N, moved: N, failed: 0 });

  const replayed = await rx.waitForRequests(deadAttempts + N, 15_000).then((all) => all.slice(deadAttempts));
  for (const req of replayed) expect(req.headers["x-switchyard-replay-id"]).toBe(replayId);
  const hookIds = replayed.map((r) => String(r.headers["x-switchyard-id"]));
  expect(new Set(hookIds).size).toBe(N);
  expect([...hookIds].sort()).toEqual([...ids].sort());

  // Nothing arrives twice afterwards, and the DLQ is empty.
  await new Promise((r) => setTimeout(r, 500));
  expect(rx.requests).toHaveLength(deadAttempts + N);
  expect(await dlqSize(gw)).toBe(0);
  const state = await admin(gw, "GET", `/v1/hooks/${ids[0]}`);
  expect(state.json.sinks.out).toMatchObject({ state: "delivered", replay_id: replayId, attempts: 1 });
}, 90_000);

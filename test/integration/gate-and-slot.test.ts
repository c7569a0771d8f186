// An outbound attempt's breaker gate and concurrency slot in one script call, when the breaker's state has
// to come from Redis (a cold or stale cache: most endpoints of a fanout). The same decisions as the two
// scripts apart: no slot behind an open breaker, the probe handed out with its slot, a full endpoint
// refused with a retry hint; and the slot alone once the cache answers the gate.
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterEach, expect, it, vi } from "vitest";
import { slotRider } from "../../src/delivery/gate-rider.ts";
import { InflightGate } from "../../src/delivery/inflight-gate.ts";
import { SharedBreaker } from "../../src/delivery/shared-breaker.ts";
import { Keys } from "../../src/store/keys.ts";
import { REDIS_URL, deletePrefix } from "../support/test-gateway.ts";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const LEASE_MS = 10_000;

/** One process's breaker and slots on an endpoint's keys, under a unique prefix removed after the test. */
async function setup(prefix = `t${randomBytes(5).toString("hex")}`) {
  const keys = new Keys(prefix);
  const redis = new Redis(REDIS_URL);
  const subscriber = new Redis(REDIS_URL);
  cleanups.push(async () => {
    await deletePrefix(redis, prefix);
    redis.disconnect();
    subscriber.disconnect();
  });
  const breaker = new SharedBreaker({
    redis,
    subscriber,
    keyOf: (id) => keys.endpointGate(id, "breaker"),
    channel: `${prefix}:breaker-changes`,
    config: { failures: 5, open_ms: 60_000, max_open_ms: 60_000 },
    probeLeaseMs: 5000,
    refreshMs: 60_000, // the cache answers for the whole test, however slow the machine
  });
  const inflight = new InflightGate(redis, (id) => keys.endpointGate(id, "inflight"));
  const evalsha = vi.spyOn(redis, "evalsha");
  const admit = (id: string, holder: string, max = 4) =>
    breaker.gateWith(id, slotRider(inflight, id, holder, max, LEASE_MS));
  /** Open the endpoint's breaker, its period ending `inMs` from now (Redis's clock; < 0: already over). */
  const open = async (id: string, inMs: number): Promise<void> => {
    const [s, us] = await redis.time();
    const now = Number(s) * 1000 + Math.floor(Number(us) / 1000);
    await redis.hset(keys.endpointGate(id, "breaker"), {
      state: "open",
      open_until: now + inMs,
      period: 60_000,
      opens: 1,
      ver: 1,
    });
  };
  const holders = (id: string) => redis.zrange(keys.endpointGate(id, "inflight"), 0, -1);
  return { prefix, admit, open, holders, evalsha };
}

it("asks Redis once for a cold endpoint's breaker and slot, and for the slot alone while the cache answers", async () => {
  const { admit, holders, evalsha } = await setup();
  const first = await admit("ep_cold", "dl_1");
  expect(first.gate).toEqual({ pass: true, probe: false });
  expect(first.ride).toEqual({ ok: true });
  expect(evalsha).toHaveBeenCalledTimes(1); // the two scripts apart: two calls

  const second = await admit("ep_cold", "dl_2");
  expect(second).toEqual({ gate: { pass: true, probe: false }, ride: { ok: true } });
  expect(evalsha).toHaveBeenCalledTimes(2); // the slot alone: the cache passed the gate
  expect(evalsha.mock.calls[0]?.[0]).not.toBe(evalsha.mock.calls[1]?.[0]); // two scripts
  expect((await holders("ep_cold")).sort()).toEqual(["dl_1", "dl_2"]);
});

it("takes no slot behind an open breaker", async () => {
  const { admit, open, holders } = await setup();
  await open("ep_open", 30_000);
  const parked = await admit("ep_open", "dl_1");
  expect(parked.gate.pass).toBe(false);
  if (!parked.gate.pass) expect(parked.gate.parkUntil).toBeGreaterThan(Date.now() + 25_000);
  expect(parked.ride).toBeUndefined();
  expect(await holders("ep_open")).toEqual([]);
});

it("hands the probe out with its slot once the open period is over, and to one caller only", async () => {
  const { admit, open, holders } = await setup();
  await open("ep_half", -1);
  const probe = await admit("ep_half", "dl_1");
  expect(probe).toEqual({ gate: { pass: true, probe: true }, ride: { ok: true } });
  expect(await holders("ep_half")).toEqual(["dl_1"]);

  const next = await admit("ep_half", "dl_2"); // the probe is out: parked, no slot
  expect(next.gate.pass).toBe(false);
  expect(next.ride).toBeUndefined();
  expect(await holders("ep_half")).toEqual(["dl_1"]);
});

it("refuses a full endpoint's slot with a retry hint, in the combined call as alone", async () => {
  const a = await setup();
  expect((await a.admit("ep_full", "dl_1", 1)).ride).toEqual({ ok: true });
  const alone = await a.admit("ep_full", "dl_2", 1); // a's cache passes the gate: the slot alone
  expect(alone.gate).toEqual({ pass: true, probe: false });
  expect(alone.ride).toMatchObject({ ok: false });
  if (alone.ride && !alone.ride.ok) expect(alone.ride.retryInMs).toBeGreaterThanOrEqual(250);

  const b = await setup(a.prefix); // another process on the same keys, its cache cold
  const combined = await b.admit("ep_full", "dl_3", 1);
  expect(b.evalsha).toHaveBeenCalledTimes(1);
  expect(combined.gate).toEqual({ pass: true, probe: false });
  expect(combined.ride).toMatchObject({ ok: false });
  expect(await a.holders("ep_full")).toEqual(["dl_1"]);
});

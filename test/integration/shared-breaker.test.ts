// The shared circuit breaker across two processes (two connection pairs, two SharedBreaker instances on
// the same keys and channel): an open seen everywhere within one pub/sub message, one probe cluster-wide,
// doubling periods, a dead probe's lease running out, jitter, and results that must not count.
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterEach, expect, it, vi } from "vitest";
import type { BreakerConfig } from "../../src/config/schema.ts";
import { ok, permanent, transient } from "../../src/domain/error-class.ts";
import { type BreakerGate, SharedBreaker, breakerResultOf } from "../../src/delivery/shared-breaker.ts";
import { REDIS_URL, deletePrefix } from "../support/test-gateway.ts";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sleepUntil = (t: number) => sleep(Math.max(0, t - Date.now()));

interface Proc {
  readonly breaker: SharedBreaker;
  /** The command connection, to count round trips on. */
  readonly redis: Redis;
}

/** Two "processes" sharing keys and channel under a unique prefix; `subscribed: false` leaves B deaf. */
async function setup(
  config: BreakerConfig = { failures: 5, open_ms: 300, max_open_ms: 1200 },
  { probeLeaseMs = 400, subscribed = true } = {},
): Promise<{ a: Proc; b: Proc; uncached: SharedBreaker }> {
  const prefix = `t${randomBytes(5).toString("hex")}`;
  const conns: Redis[] = [];
  const proc = (refreshMs?: number): Proc => {
    const redis = new Redis(REDIS_URL);
    const subscriber = new Redis(REDIS_URL);
    conns.push(redis, subscriber);
    const breaker = new SharedBreaker({
      redis,
      subscriber,
      keyOf: (target) => `{${prefix}}:breaker:${target}`,
      channel: `{${prefix}}:breaker-changes`,
      config,
      probeLeaseMs,
      refreshMs,
    });
    return { breaker, redis };
  };
  const a = proc();
  const b = proc();
  // Trusts no cache: every call goes to the scripts.
  const uncached = proc(0).breaker;
  await a.breaker.start();
  if (subscribed) await b.breaker.start();
  cleanups.push(async () => {
    await a.breaker.close();
    if (subscribed) await b.breaker.close();
    await deletePrefix(a.redis, prefix);
    for (const c of conns) c.disconnect();
  });
  return { a, b, uncached };
}

/** Record `n` countable failures on `p` and return the last record. */
async function fail(p: Proc, n: number, target = "sink") {
  let last;
  for (let i = 0; i < n; i++) last = await p.breaker.record(target, "failure", false);
  return last;
}

/** Poll `p.gate` every 5 ms until `until` says yes; the gate that did, and how long it took. */
async function pollGate(p: Proc, until: (g: BreakerGate) => boolean, timeoutMs = 2000) {
  const start = Date.now();
  for (;;) {
    const g = await p.breaker.gate("sink");
    if (until(g)) return { gate: g, ms: Date.now() - start };
    if (Date.now() - start > timeoutMs) throw new Error("gate never changed");
    await sleep(5);
  }
}

const parkedUntil = (g: BreakerGate): number => (g.pass ? Number.NaN : g.parkUntil);

it("opens on A after 5 failures; B parks within 100 ms by pub/sub, without a round trip", async () => {
  const { a, b } = await setup();
  expect(await b.breaker.gate("sink")).toEqual({ pass: true, probe: false }); // B now caches "closed"
  const bTrips = vi.spyOn(b.redis, "evalsha");
  for (let i = 0; i < 4; i++) {
    expect(await a.breaker.record("sink", "failure", false)).toEqual({
      state: "closed",
      changed: false,
      openUntil: null,
    });
  }
  const opened = await a.breaker.record("sink", "failure", false);
  expect(opened.state).toBe("open");
  expect(opened.changed).toBe(true);
  const openUntil = opened.openUntil ?? 0;
  expect(openUntil - Date.now()).toBeGreaterThan(250);
  expect(openUntil - Date.now()).toBeLessThanOrEqual(300);

  const { gate, ms } = await pollGate(b, (g) => !g.pass);
  expect(ms).toBeLessThan(100);
  expect(bTrips).not.toHaveBeenCalled(); // it heard, it did not ask
  // Parked until the end of the open period, plus at most 10% of it.
  expect(parkedUntil(gate)).toBeGreaterThanOrEqual(openUntil - 5);
  expect(parkedUntil(gate)).toBeLessThanOrEqual(openUntil + 30 + 5);
  expect((await a.breaker.gate("sink")).pass).toBe(false);
  expect((await b.breaker.state("sink")).state).toBe("open");
});

it("hands one probe to 20 concurrent callers; its failure doubles the period, its success closes for both", async () => {
  const { a, b } = await setup();
  const first = await fail(a, 5);
  await sleepUntil((first?.openUntil ?? 0) + 5);

  const gates = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? b : a).breaker.gate("sink")));
  const probes = gates.flatMap((g, i) => (g.pass ? [{ g, i }] : []));
  expect(probes).toHaveLength(1);
  expect(probes[0]?.g).toEqual({ pass: true, probe: true });
  // The others wait for the probe's deadline (400 ms lease), plus jitter.
  for (const g of gates.filter((g) => !g.pass)) {
    expect(parkedUntil(g) - Date.now()).toBeGreaterThan(300);
    expect(parkedUntil(g) - Date.now()).toBeLessThanOrEqual(400 + 30);
  }
  const view = await a.breaker.state("sink");
  expect(view.state).toBe("half_open");
  expect((view.probeUntil ?? 0) - Date.now()).toBeGreaterThan(300);

  const holder = (probes[0]?.i ?? 0) % 2 ? b : a;
  const other = holder === a ? b : a;
  const reopened = await holder.breaker.record("sink", "failure", true);
  expect(reopened.state).toBe("open");
  expect(reopened.changed).toBe(true);
  const openUntil = reopened.openUntil ?? 0;
  expect(openUntil - Date.now()).toBeGreaterThan(550); // 2 × 300
  expect(openUntil - Date.now()).toBeLessThanOrEqual(600);
  // The other process hears of it: its parked callers now wait for the new period, not the old probe.
  const heard = await pollGate(other, (g) => !g.pass && parkedUntil(g) >= openUntil - 5, 100);
  expect(parkedUntil(heard.gate)).toBeLessThanOrEqual(openUntil + 60 + 5);

  await sleepUntil(openUntil + 5);
  const second = await Promise.all([a.breaker.gate("sink"), b.breaker.gate("sink")]);
  expect(second.filter((g) => g.pass)).toHaveLength(1);
  const prober = second[0]?.pass ? a : b;
  const waiter = prober === a ? b : a;
  expect(await prober.breaker.record("sink", "success", true)).toEqual({
    state: "closed",
    changed: true,
    openUntil: null,
  });
  const closed = await pollGate(waiter, (g) => g.pass, 100);
  expect(closed.gate).toEqual({ pass: true, probe: false });
  expect(await prober.breaker.gate("sink")).toEqual({ pass: true, probe: false });

  // Closed means a fresh start: the streak and the doubling both reset.
  await fail(b, 4);
  expect((await b.breaker.state("sink")).state).toBe("closed");
  const again = await fail(a, 1);
  expect((again?.openUntil ?? 0) - Date.now()).toBeLessThanOrEqual(300);
  expect((again?.openUntil ?? 0) - Date.now()).toBeGreaterThan(250);
});

it("gives the probe to another caller once a probe that never records passes its deadline", async () => {
  // A long probe lease, so a loaded machine's late timer cannot carry "still A's" past the deadline.
  const { a, b } = await setup(undefined, { probeLeaseMs: 1500 });
  const opened = await fail(a, 5);
  await sleepUntil((opened?.openUntil ?? 0) + 5);
  expect(await a.breaker.gate("sink")).toEqual({ pass: true, probe: true }); // ...and A's process dies
  const parked = await b.breaker.gate("sink");
  expect(parked.pass).toBe(false);
  const view = await b.breaker.state("sink");
  const deadline = view.probeUntil ?? 0;
  expect(parkedUntil(parked)).toBeGreaterThanOrEqual(deadline - 5);

  await sleepUntil(deadline - 700);
  expect((await b.breaker.gate("sink")).pass).toBe(false); // still A's
  await sleepUntil(deadline + 5);
  expect(await b.breaker.gate("sink")).toEqual({ pass: true, probe: true });
  expect((await a.breaker.gate("sink")).pass).toBe(false); // one probe at a time, even now
  // The new probe decides.
  const reopened = await b.breaker.record("sink", "failure", true);
  expect(reopened.changed).toBe(true);
  // Doubled: 600 ms from the failed probe, well past the first period's 300.
  expect((reopened.openUntil ?? 0) - Date.now()).toBeGreaterThan(400);
});

it("frees the probe at once when its result is ignored (a permanent failure proves nothing)", async () => {
  const { a, b } = await setup({ failures: 1, open_ms: 100, max_open_ms: 400 }, { probeLeaseMs: 5000 });
  const opened = await fail(a, 1);
  await sleepUntil((opened?.openUntil ?? 0) + 5);
  expect(await a.breaker.gate("sink")).toEqual({ pass: true, probe: true });
  await pollGate(b, (g) => !g.pass && parkedUntil(g) - Date.now() > 4000, 100); // B heard: probe out
  const freed = await a.breaker.record("sink", "ignored", true);
  expect(freed).toMatchObject({ state: "half_open", changed: false });
  // B hears the probe is free and takes it, long before the 5 s lease would have run out.
  const next = await pollGate(b, (g) => g.pass, 100);
  expect(next.gate).toEqual({ pass: true, probe: true });
  expect((await b.breaker.record("sink", "success", true)).state).toBe("closed");
});

it("doubles the open period per consecutive open up to max_open_ms", async () => {
  const { a } = await setup({ failures: 1, open_ms: 100, max_open_ms: 250 }, { probeLeaseMs: 1000 });
  let rec = await fail(a, 1);
  const periods: number[] = [];
  for (let i = 0; i < 4; i++) {
    periods.push(Math.round(((rec?.openUntil ?? 0) - Date.now()) / 50) * 50);
    await sleepUntil((rec?.openUntil ?? 0) + 5);
    // The probe is due now; on a loaded machine the change's own pub/sub message can reach this process
    // late and push its cached end of the period back by that delay, so allow it 100 ms to be handed out.
    const { gate } = await pollGate(a, (g) => g.pass, 100);
    expect(gate).toEqual({ pass: true, probe: true });
    rec = await a.breaker.record("sink", "failure", true);
  }
  expect(periods).toEqual([100, 200, 250, 250]);
});

it("does not count ignored results; a success resets the streak; neither costs a round trip when closed", async () => {
  const { a, b, uncached } = await setup({ failures: 3, open_ms: 300, max_open_ms: 1200 });
  expect(breakerResultOf(permanent("gone"))).toBe("ignored");
  expect(breakerResultOf(transient("5xx"))).toBe("failure");
  expect(breakerResultOf(ok)).toBe("success");

  expect((await b.breaker.gate("sink")).pass).toBe(true); // B caches "closed, nothing counted"
  await fail(a, 2);
  const aTrips = vi.spyOn(a.redis, "evalsha");
  for (let i = 0; i < 10; i++) await a.breaker.record("sink", "ignored", false);
  expect(aTrips).not.toHaveBeenCalled();
  // Nor does the script count them, when the cache cannot answer.
  for (let i = 0; i < 5; i++) {
    expect((await uncached.record("sink", "ignored", false)).state).toBe("closed");
  }
  expect((await a.breaker.state("sink")).state).toBe("closed");
  // B heard (pub/sub) that failures are being counted, so its success goes to Redis and resets them.
  const bTrips = vi.spyOn(b.redis, "evalsha");
  expect(await b.breaker.record("sink", "success", false)).toEqual({
    state: "closed",
    changed: false,
    openUntil: null,
  });
  expect(bTrips).toHaveBeenCalledTimes(1);
  await b.breaker.record("sink", "success", false); // nothing counted any more: free
  expect(bTrips).toHaveBeenCalledTimes(1);
  await fail(a, 2);
  expect((await a.breaker.state("sink")).state).toBe("closed"); // 2 since the success, not 4
  expect((await fail(a, 1))?.state).toBe("open");

  // A closed breaker with nothing counted: success and ignored are free.
  const { a: c } = await setup();
  expect((await c.breaker.gate("sink")).pass).toBe(true);
  const cTrips = vi.spyOn(c.redis, "evalsha");
  for (let i = 0; i < 50; i++) {
    expect((await c.breaker.gate("sink")).pass).toBe(true);
    await c.breaker.record("sink", i % 2 ? "success" : "ignored", false);
  }
  expect(cTrips).not.toHaveBeenCalled();
});

it("jitters parked callers within 0..min(1000, 10% of the period)", async () => {
  const { a, b } = await setup({ failures: 1, open_ms: 2000, max_open_ms: 4000 });
  const opened = await fail(a, 1);
  const openUntil = opened?.openUntil ?? 0;
  await pollGate(b, (g) => !g.pass, 100);
  const offsets = await Promise.all(
    Array.from(
      { length: 60 },
      async (_, i) => parkedUntil(await (i % 2 ? b : a).breaker.gate("sink")) - openUntil,
    ),
  );
  for (const o of offsets) {
    expect(o).toBeGreaterThanOrEqual(-5); // B's clock reading of the same instant, a few ms apart
    expect(o).toBeLessThanOrEqual(200 + 5);
  }
  expect(new Set(offsets).size).toBeGreaterThan(20);
});

it("re-reads about once a second: costs one round trip per refresh, and catches an open it did not hear", async () => {
  const { a, b } = await setup(undefined, { subscribed: false });
  expect((await b.breaker.gate("sink")).pass).toBe(true);
  const bTrips = vi.spyOn(b.redis, "evalsha");
  const opened = Date.now();
  await fail(a, 5);
  // B is not subscribed: it keeps passing on its cached "closed" until the refresh, within ~1 s.
  const { ms } = await pollGate(b, (g) => !g.pass, 1500);
  expect(ms).toBeGreaterThan(500);
  expect(Date.now() - opened).toBeLessThanOrEqual(1100);
  expect(bTrips).toHaveBeenCalledTimes(1);
});

it("asks Redis once for a burst of gates, and of records, that find the cached entry stale", async () => {
  const { a } = await setup();
  expect((await a.breaker.gate("sink")).pass).toBe(true);
  await sleep(1050); // the entry is stale: the next calls must ask Redis
  const trips = vi.spyOn(a.redis, "evalsha");
  const gates = await Promise.all(Array.from({ length: 40 }, () => a.breaker.gate("sink")));
  expect(gates.every((g) => g.pass && !g.probe)).toBe(true);
  expect(trips).toHaveBeenCalledTimes(1);

  await sleep(1050);
  const records = await Promise.all(
    Array.from({ length: 40 }, (_, i) => a.breaker.record("sink", i % 2 ? "success" : "ignored", false)),
  );
  expect(records.every((r) => r.state === "closed" && !r.changed)).toBe(true);
  expect(trips).toHaveBeenCalledTimes(2);
  // A failure is never answered from the cache: it is counted by its own call.
  await Promise.all([a.breaker.record("sink", "failure", false), a.breaker.record("sink", "failure", false)]);
  expect(trips).toHaveBeenCalledTimes(4);
  expect((await a.breaker.state("sink")).state).toBe("closed");
});

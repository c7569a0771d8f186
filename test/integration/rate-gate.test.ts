// The shared rate limit: two processes (two connections) taking for one target together stay within
// rate + burst in every sliding second, and still get everything through at the rate.
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterEach, expect, it } from "vitest";
import { RateGate } from "../../src/delivery/rate-gate.ts";
import { REDIS_URL, deletePrefix } from "../support/test-gateway.ts";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `n` connections and a key plan under a unique prefix, all removed after the test. */
async function setup(n: number): Promise<{ conns: Redis[]; keyOf: (target: string) => string }> {
  const prefix = `t${randomBytes(5).toString("hex")}`;
  const conns = Array.from({ length: n }, () => new Redis(REDIS_URL));
  await Promise.all(conns.map((c) => c.ping()));
  cleanups.push(async () => {
    const first = conns[0];
    if (first) await deletePrefix(first, prefix);
    for (const c of conns) c.disconnect();
  });
  return { conns, keyOf: (target) => `{${prefix}}:rate:${target}` };
}

/** The most events in any half-open window [t, t + windowMs). */
function maxInWindow(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let lo = 0;
  for (let hi = 0; hi < sorted.length; hi++) {
    while ((sorted[hi] ?? 0) - (sorted[lo] ?? 0) >= windowMs) lo++;
    best = Math.max(best, hi - lo + 1);
  }
  return best;
}

it("spaces 20 takes from two processes at 5/s: at most 7 in any sliding second, all done in ~3.4 s", async () => {
  const { conns, keyOf } = await setup(2);
  const gates = conns.map((c) => new RateGate(c, keyOf));
  // Load the script on the server first, so no process's first take pays an extra round trip.
  await gates[0]?.take("warmup", 1000);

  const times: number[] = [];
  const start = performance.now();
  const loop = async (gate: RateGate): Promise<void> => {
    while (times.length < 20) {
      const taken = await gate.take("sink", 5);
      if (taken.ok) times.push(performance.now());
      else await sleep(taken.retryInMs);
    }
  };
  await Promise.all(gates.map(loop));

  expect(times).toHaveLength(20);
  // When the 20th got through (the other loop may still be sleeping out a refusal).
  const elapsed = Math.max(...times) - start;
  const max = maxInWindow(times, 1000);
  console.log(
    `rate-gate: max takes in a 1000 ms sliding window = ${max}; 20 takes in ${Math.round(elapsed)} ms`,
  );
  expect(max).toBeLessThanOrEqual(7);
  // The burst is used: 3 at once, then one every 200 ms, so 7 land in the first second.
  expect(max).toBe(7);
  // 3 at t=0, the other 17 at 200 ms intervals: the last at 3.4 s.
  expect(elapsed).toBeGreaterThan(3350);
  expect(elapsed).toBeLessThan(4500);
});

it("refuses with the wait until the next slot, and a refused take reserves nothing", async () => {
  const { conns, keyOf } = await setup(1);
  const gate = new RateGate(conns[0] as Redis, keyOf);
  // 2/s: one slot per 500 ms, plus a burst of 2.
  for (let i = 0; i < 3; i++) expect(await gate.take("sink", 2)).toEqual({ ok: true });
  const t0 = performance.now();
  const refused = await gate.take("sink", 2);
  expect(refused.ok).toBe(false);
  const retryInMs = refused.ok ? 0 : refused.retryInMs;
  expect(retryInMs).toBeGreaterThan(450);
  expect(retryInMs).toBeLessThanOrEqual(500);

  // Asking again and again does not push the slot back.
  for (let i = 0; i < 10; i++) {
    const again = await gate.take("sink", 2);
    expect(again.ok).toBe(false);
    if (!again.ok) expect(again.retryInMs).toBeLessThanOrEqual(retryInMs);
  }
  await sleep(retryInMs - (performance.now() - t0) - 100);
  expect((await gate.take("sink", 2)).ok).toBe(false); // ~100 ms early
  await sleep(110);
  expect(await gate.take("sink", 2)).toEqual({ ok: true });
  // The next slot is one interval after the one just used (less however late this take was).
  const next = await gate.take("sink", 2);
  expect(next.ok).toBe(false);
  if (!next.ok) expect(next.retryInMs).toBeGreaterThan(350);
  if (!next.ok) expect(next.retryInMs).toBeLessThanOrEqual(500);

  // The key lapses once it no longer constrains anyone.
  const pttl = await (conns[0] as Redis).pttl(keyOf("sink"));
  expect(pttl).toBeGreaterThan(0);
  expect(pttl).toBeLessThanOrEqual(1500);
});

it("keeps targets apart and rejects a rate that is not positive", async () => {
  const { conns, keyOf } = await setup(1);
  const gate = new RateGate(conns[0] as Redis, keyOf, { burst: 0 });
  expect((await gate.take("a", 1)).ok).toBe(true);
  expect((await gate.take("a", 1)).ok).toBe(false);
  expect((await gate.take("b", 1)).ok).toBe(true);
  await expect(gate.take("a", 0)).rejects.toThrow(RangeError);
  expect(() => new RateGate(conns[0] as Redis, keyOf, { burst: -1 })).toThrow(RangeError);
});

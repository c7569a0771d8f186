// The shared in-flight cap: exactly `max` holders at once however many ask together and from however
// many connections, a release or a lapsed lease frees a slot, and renew keeps a long attempt's slot.
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterEach, expect, it } from "vitest";
import { InflightGate } from "../../src/delivery/inflight-gate.ts";
import { REDIS_URL, deletePrefix } from "../support/test-gateway.ts";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Two connections, each with its own gate, sharing keys under a unique prefix removed after the test. */
async function setup(options = {}): Promise<{ a: InflightGate; b: InflightGate; redis: Redis; key: string }> {
  const prefix = `t${randomBytes(5).toString("hex")}`;
  const conns = [new Redis(REDIS_URL), new Redis(REDIS_URL)] as const;
  await Promise.all(conns.map((c) => c.ping()));
  cleanups.push(async () => {
    await deletePrefix(conns[0], prefix);
    for (const c of conns) c.disconnect();
  });
  const keyOf = (target: string) => `{${prefix}}:inflight:${target}`;
  return {
    a: new InflightGate(conns[0], keyOf, options),
    b: new InflightGate(conns[1], keyOf, options),
    redis: conns[0],
    key: keyOf("sink"),
  };
}

it("lets exactly max of 50 concurrent acquires from two connections through", async () => {
  const { a, b, redis, key } = await setup();
  const results = await Promise.all(
    Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? a : b).acquire("sink", `h${i}`, 8, 10_000)),
  );
  expect(results.filter((r) => r.ok)).toHaveLength(8);
  // The short hint (250 ms) while the attempts in flight are young; on a loaded machine they may have
  // aged a few ms by the later refusals, which spreads those waiters a little later, never sooner.
  for (const r of results) if (!r.ok) expect(r.retryInMs).toSatisfy((ms: number) => ms >= 250 && ms < 10_000);
  expect(results.filter((r) => !r.ok && r.retryInMs === 250).length).toBeGreaterThan(0);
  expect(await redis.zcard(key)).toBe(8);
  // Another holder on either side is refused until one releases.
  expect((await b.acquire("sink", "late", 8, 10_000)).ok).toBe(false);
  const holder = `h${results.findIndex((r) => r.ok)}`;
  expect(await b.release("sink", holder)).toBe(true); // released through the other connection
  expect(await b.release("sink", holder)).toBe(false);
  expect((await b.acquire("sink", "late", 8, 10_000)).ok).toBe(true);
  expect((await a.acquire("sink", "later", 8, 10_000)).ok).toBe(false);
  // The limit is one for both connections: with 5 held through a, b gets the other 3.
  const held = [...results.flatMap((r, i) => (r.ok ? [`h${i}`] : [])), "late"];
  for (const h of held) await a.release("sink", h);
  expect(await redis.zcard(key)).toBe(0);
  for (let i = 0; i < 5; i++) expect((await a.acquire("sink", `a${i}`, 8, 10_000)).ok).toBe(true);
  const fromB = await Promise.all(
    Array.from({ length: 10 }, (_, i) => b.acquire("sink", `b${i}`, 8, 10_000)),
  );
  expect(fromB.filter((r) => r.ok)).toHaveLength(3);
  // Another target has slots of its own.
  expect((await a.acquire("other", "later", 8, 10_000)).ok).toBe(true);
});

it("frees the slot of a holder that never releases once its lease runs out", async () => {
  const { a, b } = await setup({ retryInMs: 5000 });
  expect((await a.acquire("sink", "dies", 2, 200)).ok).toBe(true);
  expect((await a.acquire("sink", "lives", 2, 10_000)).ok).toBe(true);
  const refused = await b.acquire("sink", "waits", 2, 10_000);
  expect(refused.ok).toBe(false);
  // The hint is the earliest expiry when that comes before retryInMs.
  if (!refused.ok) expect(refused.retryInMs).toBeGreaterThan(150);
  if (!refused.ok) expect(refused.retryInMs).toBeLessThanOrEqual(200);
  await sleep(120);
  expect((await b.acquire("sink", "waits", 2, 10_000)).ok).toBe(false); // not yet
  await sleep(100);
  expect((await b.acquire("sink", "waits", 2, 10_000)).ok).toBe(true);
  // The dead holder's slot is gone for good: it cannot renew into a third slot.
  expect(await a.renew("sink", "dies", 10_000)).toBe(false);
  expect((await a.acquire("sink", "another", 2, 10_000)).ok).toBe(false);
});

it("renews a live lease, and a repeated acquire by one holder takes one slot", async () => {
  // Leases of a second or more, so a loaded machine's scheduling delays stay well inside each margin.
  const { a, b, redis, key } = await setup();
  expect((await a.acquire("sink", "long", 1, 1000)).ok).toBe(true);
  expect((await a.acquire("sink", "long", 1, 1000)).ok).toBe(true); // same holder: same slot
  expect(await redis.zcard(key)).toBe(1);
  await sleep(600);
  expect(await a.renew("sink", "long", 2000)).toBe(true);
  await sleep(1000); // past the first lease, inside the renewed one
  expect((await b.acquire("sink", "other", 1, 1000)).ok).toBe(false);
  expect(await redis.pttl(key)).toBeGreaterThan(500);
  await sleep(1300); // past the renewed lease
  expect(await a.renew("sink", "long", 2000)).toBe(false);
  expect((await b.acquire("sink", "other", 1, 1000)).ok).toBe(true);
  expect(await b.renew("sink", "nobody", 2000)).toBe(false);
  await expect(a.acquire("sink", "x", 0, 1000)).rejects.toThrow(RangeError);
});

it("makes refused holders wait their turn: by place among the waiters and the age of the attempts in flight", async () => {
  const maxWaitMs = 1500;
  const { a, b, redis, key } = await setup({ maxWaitMs, waitGraceMs: 300 });
  const waits = async (holders: string[]): Promise<number[]> => {
    const out: number[] = [];
    for (const h of holders) {
      const r = await b.acquire("sink", h, 2, 10_000);
      if (r.ok) throw new Error(`${h} got a slot`);
      out.push(r.retryInMs);
    }
    return out;
  };
  expect((await a.acquire("sink", "h1", 2, 10_000)).ok).toBe(true);
  expect((await a.acquire("sink", "h2", 2, 10_000)).ok).toBe(true);
  // Young attempts: the short hint, whatever the place.
  expect(await waits(["early"])).toEqual([250]);
  await sleep(400);
  // 400 ms old (older on a loaded machine): a slot frees about every age / 2, so a holder with k waiting
  // before it waits (k + 1) × age / 2, at least the short hint and at most maxWaitMs. `early` is first
  // in line, so w1 waits one age; each later ask finds the attempts older by at most `drift`.
  const asked = Date.now();
  const ws = await waits(["w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8"]);
  const drift = Date.now() - asked;
  const age = ws[0] ?? 0;
  expect(age).toBeGreaterThanOrEqual(395);
  ws.forEach((w, i) => {
    const share = (i + 2) / 2; // (ahead + 1) / max holders, with i + 1 waiting ahead
    expect(w, `w${i + 1}`).toBeGreaterThanOrEqual(Math.min(Math.floor(share * age), maxWaitMs));
    expect(w, `w${i + 1}`).toBeLessThanOrEqual(Math.min(Math.ceil(share * (age + drift)), maxWaitMs));
  });
  // The last ones in line are held to the longest wait (4 × age ≥ 1,600 ms here).
  expect(ws.at(-1)).toBe(maxWaitMs);
  const w1 = ws[0];
  // Asking again at its time, the first in line waits the shortest.
  const [again] = await waits(["early"]);
  expect(again).toBeLessThan(w1!);
  // A holder that gets a slot leaves the waiters.
  await a.release("sink", "h1");
  expect((await b.acquire("sink", "w3", 2, 10_000)).ok).toBe(true);
  expect(await redis.zscore(`${key}:waiting`, "w3")).toBeNull();
  // Waiters that did not come back within the grace are forgotten: a newcomer is first in line.
  await sleep(maxWaitMs + 300 + 50);
  await a.release("sink", "w3");
  expect((await a.acquire("sink", "h3", 2, 10_000)).ok).toBe(true);
  await waits(["newcomer"]);
  expect(await redis.zrange(`${key}:waiting`, 0, -1)).toEqual(["newcomer"]);
});

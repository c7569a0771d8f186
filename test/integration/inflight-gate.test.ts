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
  for (const r of results) if (!r.ok) expect(r.retryInMs).toBe(250);
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
  const { a, b } = await setup({ maxRetryInMs: 5000 });
  expect((await a.acquire("sink", "dies", 2, 200)).ok).toBe(true);
  expect((await a.acquire("sink", "lives", 2, 10_000)).ok).toBe(true);
  const refused = await b.acquire("sink", "waits", 2, 10_000);
  expect(refused.ok).toBe(false);
  // The hint is the earliest expiry when that comes before maxRetryInMs.
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
  const { a, b, redis, key } = await setup();
  expect((await a.acquire("sink", "long", 1, 200)).ok).toBe(true);
  expect((await a.acquire("sink", "long", 1, 200)).ok).toBe(true); // same holder: same slot
  expect(await redis.zcard(key)).toBe(1);
  await sleep(120);
  expect(await a.renew("sink", "long", 400)).toBe(true);
  await sleep(200); // past the first lease, inside the renewed one
  expect((await b.acquire("sink", "other", 1, 200)).ok).toBe(false);
  expect(await redis.pttl(key)).toBeGreaterThan(100);
  await sleep(260); // past the renewed lease
  expect(await a.renew("sink", "long", 400)).toBe(false);
  expect((await b.acquire("sink", "other", 1, 200)).ok).toBe(true);
  expect(await b.renew("sink", "nobody", 400)).toBe(false);
  await expect(a.acquire("sink", "x", 0, 200)).rejects.toThrow(RangeError);
});

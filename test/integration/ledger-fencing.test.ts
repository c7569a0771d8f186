// The ledger's fencing at the store level: a worker whose lease ran out and was taken over cannot
// record anything over what the new holder recorded (nor renew, nor dead-letter), a live lease is
// not taken, and `revive` (replay) is idempotent per replay and refuses a row that died again after
// the replay's snapshot.
import { afterEach, expect, it } from "vitest";
import { type ReplayId, newId } from "../../src/domain/ids.ts";
import type { DeliveryStore } from "../../src/store/delivery-store.ts";
import { dlqCount, hookFixture, ledgerStores, sinkRow } from "../support/ledger.ts";
import { scratchRedis, testConfig } from "../support/test-gateway.ts";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A persisted hook with one delivery row (to sink `out`), and the stores over it. */
async function oneDelivery() {
  const config = testConfig({
    sinks: { out: { type: "http", url: "http://127.0.0.1:9/" } },
    sources: { src: { verify: { type: "none" }, sinks: ["out"] } },
  });
  const { keys, redis, cleanup } = scratchRedis(config);
  cleanups.push(cleanup);
  const stores = ledgerStores(redis, keys);
  const hook = hookFixture({ source: "src", sinks: ["out"] });
  expect(await stores.hooks.persist(hook, { dedupTtlS: 60, staleAfterMs: 60_000 })).toEqual({ kind: "new" });
  const row = sinkRow(hook, "out");
  const claim = (ledger: DeliveryStore, owner: string, leaseMs: number) =>
    ledger.claim(row.id, keys.hook(hook.id), owner, leaseMs, []);
  return { ...stores, redis, keys, row, claim };
}

it("refuses every write of a worker whose lease was taken over", async () => {
  const { ledger, redis, keys, row, claim } = await oneDelivery();

  const a = await claim(ledger, "worker-a", 200);
  expect(a).toMatchObject({ kind: "ok", fence: 1, attempt: 1 });
  await sleep(300); // A's lease has run out (A is frozen, or its process is gone)
  const b = await claim(ledger, "worker-b", 10_000);
  expect(b).toMatchObject({ kind: "ok", fence: 2, attempt: 2 });
  if (a.kind !== "ok" || b.kind !== "ok") throw new Error("unreachable");

  // While B's lease is live nobody else gets the row.
  const c = await claim(ledger, "worker-c", 10_000);
  expect(c.kind).toBe("leased");
  expect(c.kind === "leased" && c.until).toBeGreaterThan(Date.now() + 9000);

  expect(await ledger.finish(row, { fence: b.fence }, { outcome: "delivered", statusCode: 200 })).toBe(true);

  // A comes back: its attempt timed out. Neither a retry nor a dead letter lands (one batch, too).
  const now = Date.now();
  const [retrying, dead] = await Promise.all([
    ledger.finish(
      row,
      { fence: a.fence },
      {
        outcome: "retrying",
        nextAttemptAt: now + 1000,
        reason: "attempt timed out after 4000 ms",
        errorClass: "transient",
      },
    ),
    ledger.finish(
      row,
      { fence: a.fence },
      {
        outcome: "dead",
        reason: "attempt timed out after 4000 ms",
        errorClass: "transient",
      },
    ),
  ]);
  expect([retrying, dead]).toEqual([false, false]);
  expect(await ledger.renew(row.id, a.fence, now + 10_000)).toBe(false);

  expect(await ledger.get(row.id)).toMatchObject({
    state: "delivered",
    attempts: 2,
    fence: 2,
    statusCode: 200,
    lastError: undefined,
  });
  expect(await dlqCount(redis, keys)).toBe(0);
  expect((await claim(ledger, "worker-d", 10_000)).kind).toBe("delivered");
});

it("revives a dead row once per replay, and not when it died again after the replay's snapshot", async () => {
  const { ledger, redis, keys, row, claim } = await oneDelivery();
  const first = await claim(ledger, "worker-a", 10_000);
  if (first.kind !== "ok") throw new Error(`claim: ${first.kind}`);
  const diedAt = Date.now();
  const gone = { outcome: "dead", reason: "HTTP 410", errorClass: "permanent" } as const;
  expect(await ledger.finish(row, { fence: first.fence }, gone, diedAt)).toBe(true);
  expect(await dlqCount(redis, keys)).toBe(1);

  const replay = newId("rp") as ReplayId;
  const snapshot = diedAt + 10;
  const dead = (await ledger.get(row.id))!;
  expect(await ledger.revive(dead, replay, snapshot)).toBe("moved");
  expect(await ledger.revive(dead, replay, snapshot)).toBe("already");
  expect(await ledger.get(row.id)).toMatchObject({ state: "pending", attempts: 0, replayId: replay });
  expect(await dlqCount(redis, keys)).toBe(0);

  // The replayed delivery dies again, after the snapshot.
  const second = await claim(ledger, "worker-b", 10_000);
  expect(second).toMatchObject({ kind: "ok", attempt: 1, replayId: replay });
  if (second.kind !== "ok") throw new Error("unreachable");
  expect(await ledger.finish(row, { fence: second.fence }, gone, snapshot + 1000)).toBe(true);
  const deadAgain = (await ledger.get(row.id))!;
  // The same replay running again (it resumed after a crash) moves nothing twice ...
  expect(await ledger.revive(deadAgain, replay, snapshot)).toBe("already");
  // ... and another replay whose snapshot predates this death leaves it alone.
  expect(await ledger.revive(deadAgain, newId("rp") as ReplayId, snapshot)).toBe("newer");
  expect(await ledger.get(row.id)).toMatchObject({ state: "dead", deadAt: snapshot + 1000 });
  expect(await dlqCount(redis, keys)).toBe(1);
  // A replay created after it moves it.
  expect(await ledger.revive(deadAgain, newId("rp") as ReplayId, snapshot + 2000)).toBe("moved");
  expect(await dlqCount(redis, keys)).toBe(0);
});

// The attempt history's bounds, on real Redis through the ledger's finish script: a row keeps its newest
// 10 attempts, and never more than 16 KiB of them (oldest dropped first, the newest always kept); an
// outcome that sent nothing (handed back, or dead without an attempt) adds no entry; a write refused by
// the fence adds none either; and the history goes with its row.
import { afterEach, beforeEach, expect, it } from "vitest";
import { ATTEMPT_HISTORY, type Attempt } from "../../src/domain/attempt.ts";
import { sinkDeliveryId } from "../../src/domain/hook.ts";
import { encodeAttempt } from "../../src/store/attempt-history.ts";
import { hookFixture, ledgerStores } from "../support/ledger.ts";
import { scratchRedis, testConfig } from "../support/test-gateway.ts";

let scratch: ReturnType<typeof scratchRedis>;
beforeEach(() => {
  scratch = scratchRedis(testConfig({ sinks: {}, sources: {} }));
});
afterEach(() => scratch.cleanup());

async function liveRow(stores: ReturnType<typeof ledgerStores>) {
  const hook = hookFixture({ source: "src", sinks: ["out"] });
  await stores.hooks.persist(hook, { dedupTtlS: 600, staleAfterMs: 3_600_000 });
  return {
    id: sinkDeliveryId(hook.id, "out"),
    parentId: hook.id,
    target: { kind: "sink" as const, name: "out" },
    source: "src",
    tenant: undefined,
  };
}

const attempt = (i: number, excerpt = ""): Attempt => ({
  at: 1_000 + i,
  durationMs: i,
  statusCode: 500,
  errorClass: "transient",
  reason: `attempt ${i}`,
  responseExcerpt: excerpt,
});

const retrying = (i: number, excerpt?: string) =>
  ({
    outcome: "retrying",
    nextAttemptAt: 10_000,
    reason: `attempt ${i}`,
    errorClass: "transient",
    attempt: attempt(i, excerpt),
  }) as const;

it("keeps the newest 10 attempts of a row, oldest first", async () => {
  const stores = ledgerStores(scratch.redis, scratch.keys);
  const row = await liveRow(stores);
  for (let i = 1; i <= 13; i++) expect(await stores.ledger.finish(row, "unfenced", retrying(i))).toBe(true);
  const found = await stores.ledger.getWithAttempts(row.id);
  expect(found?.attempts.map((a) => a.reason)).toEqual(
    Array.from({ length: ATTEMPT_HISTORY.count }, (_, k) => `attempt ${k + 4}`),
  );
  expect(found?.attempts[9]).toEqual({
    ...attempt(13),
    responseExcerpt: undefined,
    signatureHeaders: undefined,
  });
});

it("keeps at most 16 KiB of attempts, and an excerpt that would make one line too long is cut", async () => {
  const stores = ledgerStores(scratch.redis, scratch.keys);
  const row = await liveRow(stores);
  // Control characters are escaped six-fold in JSON: each line is cut to at most 2 KiB.
  const nasty = "\u0001".repeat(1024);
  expect(Buffer.byteLength(encodeAttempt(attempt(0, nasty)))).toBeLessThanOrEqual(2048);
  // Quotes are escaped two-fold: ten such lines take about 19 KiB, more than a row keeps.
  const QUOTES = '"'.repeat(900);
  for (let i = 1; i <= 10; i++) await stores.ledger.finish(row, "unfenced", retrying(i, QUOTES));
  const raw = await scratch.redis.hget(scratch.keys.delivery(row.id), "ah");
  expect(Buffer.byteLength(raw ?? "")).toBeLessThanOrEqual(ATTEMPT_HISTORY.bytes);
  const kept = (await stores.ledger.getWithAttempts(row.id))?.attempts ?? [];
  expect(kept.length).toBeGreaterThan(1);
  expect(kept.length).toBeLessThan(10);
  expect(kept.at(-1)?.reason).toBe("attempt 10");
  expect(kept[0]?.responseExcerpt).toBe(QUOTES);
});

it("records nothing for an outcome that sent nothing, or a write the fence refused; the history goes with its row", async () => {
  const stores = ledgerStores(scratch.redis, scratch.keys, { retentionS: 1 });
  const row = await liveRow(stores);
  await stores.ledger.finish(row, "unfenced", retrying(1));
  expect(await stores.ledger.finish(row, { fence: 99 }, retrying(2))).toBe(false); // not its lease
  await stores.ledger.finish(row, "unfenced", {
    outcome: "dead",
    reason: "gave up",
    errorClass: "transient",
    attempted: false,
  });
  const found = await stores.ledger.getWithAttempts(row.id);
  expect(found?.row.state).toBe("dead");
  expect(found?.attempts.map((a) => a.reason)).toEqual(["attempt 1"]);
  expect(await scratch.redis.ttl(scratch.keys.delivery(row.id))).toBeGreaterThan(0); // one key, one expiry
});

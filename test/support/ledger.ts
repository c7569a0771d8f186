// Building blocks for tests that drive the ledger directly: well-formed hook records (their id in the
// bucket of their dedup identity, as ingest makes them) and the stores on a scratch connection.
import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import { type HookRecord, idempotencyKey } from "../../src/domain/hook.ts";
import { bucketFor, newId } from "../../src/domain/ids.ts";
import { DeliveryQueues } from "../../src/queue/delivery-queues.ts";
import { DeliveryStore } from "../../src/store/delivery-store.ts";
import { DlqStore } from "../../src/store/dlq-store.ts";
import { HookStore } from "../../src/store/hook-store.ts";
import type { Keys } from "../../src/store/keys.ts";

/** A hook as ingest would build it, for `source` and `sinks`, received at `receivedAt`. */
export function hookFixture(opts: {
  source: string;
  sinks: readonly string[];
  receivedAt?: number;
  n?: number;
  tenant?: string;
}): HookRecord {
  const receivedAt = opts.receivedAt ?? Date.now();
  const body = Buffer.from(JSON.stringify({ n: opts.n ?? 0, nonce: Math.random() }));
  const sha256 = createHash("sha256").update(body).digest("hex");
  const dedupKey = `sha256:${sha256}`;
  const identity = idempotencyKey(opts.tenant, opts.source, dedupKey);
  return {
    id: newId("hk", receivedAt, bucketFor(identity)),
    source: opts.source,
    tenant: opts.tenant,
    receivedAt,
    contentType: "application/json",
    headers: { "content-type": "application/json" },
    body,
    sha256,
    dedupKey,
    idempotencyKey: identity,
    sinks: opts.sinks,
  };
}

/** The ledger, hook and DLQ stores on `redis` (retention and staleness as given). */
export function ledgerStores(
  redis: Redis,
  keys: Keys,
  opts: { retentionS?: number; staleAfterMs?: number } = {},
): { ledger: DeliveryStore; hooks: HookStore; dlq: DlqStore } {
  const ledger = new DeliveryStore(redis, keys, {
    retentionS: opts.retentionS ?? 600,
    staleAfterMs: opts.staleAfterMs ?? 60_000,
  });
  return { ledger, hooks: new HookStore(redis, keys, ledger), dlq: new DlqStore(redis, keys, ledger) };
}

/** Dead deliveries listed in the DLQ, over every bucket. */
export async function dlqCount(redis: Redis, keys: Keys): Promise<number> {
  const counts = await Promise.all(keys.buckets.map((b) => redis.zcard(keys.dlqIndex(b, "all"))));
  return counts.reduce((a, b) => a + b, 0);
}

export { DeliveryQueues };

// Building blocks for tests that drive the ledger directly: well-formed hook records (their id in the
// bucket of their dedup identity, as ingest makes them) and the stores on a scratch connection.
import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import type { RedisClient } from "../../src/store/redis-client.ts";
import type { DlqEntry } from "../../src/domain/dlq.ts";
import type { ErrorClass } from "../../src/domain/error-class.ts";
import { type HookRecord, idempotencyKey, sinkDeliveryId } from "../../src/domain/hook.ts";
import { type DeliveryId, bucketFor, bucketOf, newId } from "../../src/domain/ids.ts";
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

/** The row of `hook`'s delivery to `sink`, as the ledger's writes name it. */
export function sinkRow(hook: HookRecord, sink: string) {
  return {
    id: sinkDeliveryId(hook.id, sink),
    parentId: hook.id,
    target: { kind: "sink" as const, name: sink },
    source: hook.source,
    tenant: hook.tenant,
  };
}

/** The ledger, hook and DLQ stores on `redis` (retention and staleness as given). */
export function ledgerStores(
  redis: RedisClient,
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
export async function dlqCount(redis: RedisClient, keys: Keys): Promise<number> {
  const counts = await Promise.all(keys.buckets.map((b) => redis.zcard(keys.dlqIndex(b, "all"))));
  return counts.reduce((a, b) => a + b, 0);
}

export { DeliveryQueues };

/** What a seeded dead delivery looks like. */
export interface DeadSeed {
  readonly source: string;
  readonly sink: string;
  readonly tenant?: string | undefined;
  readonly error_class: ErrorClass;
  readonly reason?: string;
  readonly dead_at: number;
}

/**
 * A real dead delivery, made the way the ledger makes one (a persisted hook whose row is then
 * dead-lettered at `dead_at`), for tests that need a DLQ of a known shape. Returns its entry.
 */
export async function seedDead(stores: ReturnType<typeof ledgerStores>, seed: DeadSeed): Promise<DlqEntry> {
  const hook = hookFixture({ source: seed.source, sinks: [seed.sink], tenant: seed.tenant });
  await stores.hooks.persist(hook, { dedupTtlS: 600, staleAfterMs: 3_600_000 });
  const row = {
    id: sinkDeliveryId(hook.id, seed.sink),
    parentId: hook.id,
    target: { kind: "sink" as const, name: seed.sink },
    source: seed.source,
    tenant: seed.tenant,
  };
  const reason = seed.reason ?? "seeded";
  await stores.ledger.finish(
    row,
    "unfenced",
    { outcome: "dead", reason, errorClass: seed.error_class },
    seed.dead_at,
  );
  const entry = await stores.dlq.get(row.id);
  if (!entry) throw new Error("seeded delivery is not in the DLQ");
  return entry;
}

/** Take a seeded entry off the DLQ again. */
export async function unseed(stores: ReturnType<typeof ledgerStores>, id: DeliveryId): Promise<void> {
  const row = await stores.ledger.get(id);
  if (row) await stores.ledger.unlist(row);
}

/**
 * Queue on `pipe` the keys of a dead delivery to `sink` without a hook record: the row as the ledger
 * leaves it and its listing in the unfiltered DLQ index. Only for volume tests (100,000 entries) that
 * read the DLQ and never deliver; everything else seeds through `seedDead`.
 */
export function pipeDeadRow(
  pipe: ReturnType<Redis["pipeline"]>,
  keys: Keys,
  seed: { sink: string; source: string; dead_at: number; reason: string },
): DeliveryId {
  const hook = newId("hk", seed.dead_at, bucketFor(String(Math.random())));
  const id = sinkDeliveryId(hook, seed.sink);
  pipe.hset(keys.delivery(id), {
    p: hook,
    t: `s:${seed.sink}`,
    st: "dead",
    a: "25",
    c: String(seed.dead_at - 86_400_000),
    fa: String(seed.dead_at - 86_400_000),
    la: String(seed.dead_at),
    xa: String(seed.dead_at),
    le: seed.reason,
    ec: "transient",
    f: "25",
    s: seed.source,
  });
  pipe.zadd(keys.dlqIndex(bucketOf(id), "all"), seed.dead_at, id);
  return id;
}

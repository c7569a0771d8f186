// Hook records in Redis, written together with their delivery rows: the durable truth every job
// points at. Jobs carry ids only, so a body is stored once however many sinks and retries read it.
// The hooks persisted within one tick go to Redis as one script call (one per bucket on a cluster);
// on a single Redis that call writes their delivery jobs too, given the queues' job layout.
import { type RedisClient, isCluster } from "./redis-client.ts";
import type { DeliveryRow } from "../domain/delivery.ts";
import { type HookRecord, idempotencyKey, sinkDeliveryId } from "../domain/hook.ts";
import { type DeliveryId, type HookId, bucketOf } from "../domain/ids.ts";
import type { DeliveryStore } from "./delivery-store.ts";
import type { Keys } from "./keys.ts";
import { inGroups } from "./group-indexes.ts";
import { LuaScript } from "./lua-script.ts";
import { TickBatch } from "./tick-batch.ts";
import { type JobLayout, RowParentStore } from "./row-write.ts";

const persistHooks = new LuaScript("persist-hooks-n.lua", "n", { oneSlotOnClusterOnly: true });

/** Most hooks in one persist call: bounds one command (bodies included) on a busy tick. */
const MAX_HOOKS_PER_CALL = 128;

/** One hook's part of a persist call. */
interface PersistWrite {
  readonly bucket: number;
  readonly keys: readonly string[];
  readonly args: readonly (string | number | Buffer)[];
  /** Called once this write's command has been handed to the connection (it is then ahead of any later one). */
  readonly onSent: (() => void) | undefined;
}

/**
 * `jobsAdded`: the hook's delivery jobs were written by the same script as its record (a single Redis
 * with a job layout); otherwise the caller adds them.
 */
export type PersistOutcome =
  | { readonly kind: "new"; readonly jobsAdded?: true }
  | { readonly kind: "duplicate"; readonly firstId: HookId };

/** A hook record with the rows of its deliveries (by sink; undefined where a row has expired). */
export interface StoredHook {
  readonly hook: HookRecord;
  readonly deliveries: Readonly<Record<string, DeliveryRow | undefined>>;
}

/** A record's small fields: what a tenant check or a replay's expansion needs, without headers or body. */
export interface HookSummary {
  readonly source: string;
  readonly tenant: string | undefined;
  readonly sinks: readonly string[];
}

/** The fields of a record a delivery attempt reads, in the order `toHookRecord` takes them. */
export const HOOK_ATTEMPT_FIELDS = ["meta", "hdr", "body"] as const;

/**
 * A record is a hash of `meta` (JSON of the small fields), `hdr` (JSON of the request headers),
 * `body` (the raw bytes) and `live` (how many of its deliveries are not final yet).
 */
interface StoredMeta {
  readonly source: string;
  readonly tenant?: string | undefined;
  readonly received_at: number;
  readonly content_type?: string | undefined;
  readonly sha256: string;
  readonly dedup_key: string;
  readonly sinks: readonly string[];
  /** The accepting request's traceparent; absent (no bytes) with tracing off. */
  readonly tp?: string | undefined;
}

/** Rebuild a record from its stored fields; undefined when they are missing (no such record). */
export function toHookRecord(
  id: HookId,
  metaRaw: Buffer | undefined,
  hdr: Buffer | undefined,
  body: Buffer | undefined,
): HookRecord | undefined {
  if (metaRaw === undefined || body === undefined) return undefined;
  const meta = JSON.parse(metaRaw.toString("utf8")) as StoredMeta;
  let headers: Record<string, string> | undefined;
  return {
    id,
    source: meta.source,
    tenant: meta.tenant,
    receivedAt: meta.received_at,
    contentType: meta.content_type,
    // Parsed on first use: the HTTP sink never reads them.
    get headers() {
      return (headers ??= hdr ? (JSON.parse(hdr.toString("utf8")) as Record<string, string>) : {});
    },
    body,
    sha256: meta.sha256,
    dedupKey: meta.dedup_key,
    idempotencyKey: idempotencyKey(meta.tenant, meta.source, meta.dedup_key),
    sinks: meta.sinks,
    traceparent: meta.tp,
  };
}

/** With a job layout (see RowParentStore), each hook's jobs are written by its persist (`jobsAdded`). */
export class HookStore extends RowParentStore {
  private readonly writes: TickBatch<PersistWrite, PersistOutcome>;
  private readonly perSlot: boolean;

  constructor(redis: RedisClient, keys: Keys, deliveries: DeliveryStore, jobs?: JobLayout) {
    super(redis, keys, deliveries, jobs);
    this.perSlot = isCluster(redis);
    this.writes = new TickBatch((batch) => this.flush(batch), MAX_HOOKS_PER_CALL);
  }

  /**
   * Write `hook` and a pending row per sink unless its dedup key is live, atomically; the round trip is
   * shared with the other hooks persisted in this tick.
   * `staleAfterMs`: when recovery should first look at a row nobody has picked up. `dedupIdentity`: the
   * identity a second copy is refused under (default: the hook's idempotency key); the hook's id must
   * carry its bucket, so the record and its dedup key share a slot.
   */
  async persist(
    hook: HookRecord,
    opts: { dedupTtlS: number; staleAfterMs: number; dedupIdentity?: string },
    onSent?: () => void,
  ): Promise<PersistOutcome> {
    const meta: StoredMeta = {
      source: hook.source,
      tenant: hook.tenant,
      received_at: hook.receivedAt,
      content_type: hook.contentType,
      sha256: hook.sha256,
      dedup_key: hook.dedupKey,
      sinks: hook.sinks,
      tp: hook.traceparent,
    };
    const keys = [
      this.keys.dedup(opts.dedupIdentity ?? hook.idempotencyKey),
      this.keys.hook(hook.id),
      this.keys.watch(bucketOf(hook.id)),
    ];
    const args: (string | number | Buffer)[] = [
      hook.sinks.length,
      hook.id,
      opts.dedupTtlS,
      hook.receivedAt,
      JSON.stringify(meta),
      JSON.stringify(hook.headers),
      hook.body,
      hook.receivedAt + opts.staleAfterMs,
      hook.source,
      hook.tenant ?? "",
    ];
    // On a cluster a job's queue is another slot than its row: the caller adds it (`onSent`).
    const jobs = this.jobs;
    args.push(this.writeMode);
    for (const sink of hook.sinks) {
      const id = sinkDeliveryId(hook.id, sink);
      const row = { id, parentId: hook.id, target: { kind: "sink", name: sink } } as const;
      this.pushRow(keys, args, row);
    }
    const bucket = bucketOf(hook.id);
    if (!jobs) return this.writes.add({ bucket, keys, args, onSent });
    const outcome = await this.writes.add({ bucket, keys, args, onSent: undefined });
    return outcome.kind === "new" ? { kind: "new", jobsAdded: true } : outcome;
  }

  /** One call for the tick's hooks on a single Redis; one per bucket (a slot) on a cluster. */
  private flush(batch: readonly PersistWrite[]): Promise<PersistOutcome[]> {
    const written = this.perSlot
      ? inGroups(
          batch,
          (write) => write.bucket,
          (group) => this.persistGroup(group),
        )
      : this.persistGroup(batch);
    for (const write of batch) write.onSent?.();
    return written;
  }

  private async persistGroup(group: readonly PersistWrite[]): Promise<PersistOutcome[]> {
    // Plain loops: flatMap costs several µs a hook on this path.
    const keys: string[] = [];
    const args: (string | number | Buffer)[] = [];
    for (const write of group) {
      for (const key of write.keys) keys.push(key);
      for (const arg of write.args) args.push(arg);
    }
    const reply = (await persistHooks.run(this.redis, keys, args)) as (number | string)[];
    return reply.map((r) => (r === 1 ? { kind: "new" } : { kind: "duplicate", firstId: r as HookId }));
  }

  /**
   * The record's small fields alone (one short read): callers check a tenant with this before loading a
   * body, so another tenant's record costs what a missing one does.
   */
  async summary(id: HookId): Promise<HookSummary | undefined> {
    const raw = await this.redis.hget(this.keys.hook(id), "meta");
    if (raw === null) return undefined;
    const meta = JSON.parse(raw) as StoredMeta;
    return { source: meta.source, tenant: meta.tenant, sinks: meta.sinks };
  }

  /** The record alone (metadata, headers, body). */
  async record(id: HookId): Promise<HookRecord | undefined> {
    const [meta, hdr, body] = await this.redis.hmgetBuffer(this.keys.hook(id), ...HOOK_ATTEMPT_FIELDS);
    return toHookRecord(id, meta ?? undefined, hdr ?? undefined, body ?? undefined);
  }

  /** The record and the row of each of its deliveries. */
  async load(id: HookId): Promise<StoredHook | undefined> {
    const hook = await this.record(id);
    if (!hook) return undefined;
    const ids: DeliveryId[] = hook.sinks.map((sink) => sinkDeliveryId(id, sink));
    const rows = await this.deliveries.getMany(ids);
    return { hook, deliveries: Object.fromEntries(hook.sinks.map((sink, i) => [sink, rows[i]])) };
  }
}

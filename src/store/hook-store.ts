// Hook records in Redis: the durable truth every job points at. Jobs carry ids only, so a body is
// stored once however many sinks and retries read it.
import type { Redis } from "ioredis";
import { PENDING, type SinkDeliveryState } from "../domain/delivery-state.ts";
import type { HookRecord } from "../domain/hook.ts";
import type { HookId } from "../domain/ids.ts";
import type { Keys } from "./keys.ts";
import { LuaScript } from "./lua-script.ts";
import { TickBatch } from "./tick-batch.ts";

const persistHook = new LuaScript("persist-hook-3.lua", 3);
const updateSinkStates = new LuaScript("update-sink-states-n.lua", "n");

/**
 * Enqueue state of a record: `persisted` until every sink job is known to exist. It is not stored as a
 * field: a record is `persisted` exactly while it is in the pending-enqueue set.
 */
export type EnqueueState = "persisted" | "enqueued";

export type PersistOutcome =
  | { readonly kind: "new" }
  | { readonly kind: "duplicate"; readonly firstId: HookId; readonly enqueueState: EnqueueState | undefined };

/** A hook record with what the workers wrote about it. */
export interface StoredHook {
  readonly hook: HookRecord;
  readonly sinkStates: Readonly<Record<string, SinkDeliveryState>>;
}

const SINK_FIELD = "s:";

/**
 * A record is a hash of four kinds of field: `meta` (JSON of the small fields), `hdr` (JSON of the
 * request headers), `body` (the raw bytes) and one `s:<sink>` per sink that has a delivery state.
 */
interface StoredMeta {
  readonly source: string;
  readonly tenant?: string | undefined;
  readonly received_at: number;
  readonly content_type?: string | undefined;
  readonly sha256: string;
  readonly dedup_key: string;
  readonly idempotency_key: string;
  readonly sinks: readonly string[];
}

function toHookRecord(id: HookId, meta: StoredMeta, hdr: Buffer | undefined, body: Buffer): HookRecord {
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
    idempotencyKey: meta.idempotency_key,
    sinks: meta.sinks,
  };
}

interface StateWrite {
  readonly key: string;
  readonly field: string;
  readonly json: string;
}

export class HookStore {
  private readonly enqueuedMarks: TickBatch<HookId, void>;
  private readonly stateWrites: TickBatch<StateWrite, boolean>;

  constructor(
    private readonly redis: Redis,
    private readonly keys: Keys,
  ) {
    this.enqueuedMarks = new TickBatch(async (ids) => {
      await this.redis.zrem(this.keys.pendingEnqueue, ...ids);
      return ids.map((): void => undefined);
    });
    this.stateWrites = new TickBatch(async (writes) => {
      const args = writes.flatMap((w) => [w.field, w.json]);
      const written = (await updateSinkStates.run(
        this.redis,
        writes.map((w) => w.key),
        args,
      )) as number[];
      return written.map((n) => n === 1);
    });
  }

  /** Write `hook` unless its dedup key is live; one atomic round trip. */
  async persist(hook: HookRecord, opts: { dedupTtlS: number; retentionS: number }): Promise<PersistOutcome> {
    const meta: StoredMeta = {
      source: hook.source,
      tenant: hook.tenant,
      received_at: hook.receivedAt,
      content_type: hook.contentType,
      sha256: hook.sha256,
      dedup_key: hook.dedupKey,
      idempotency_key: hook.idempotencyKey,
      sinks: hook.sinks,
    };
    const reply = (await persistHook.run(
      this.redis,
      [
        this.keys.dedup(hook.tenant, hook.source, hook.dedupKey),
        this.keys.hook(hook.id),
        this.keys.pendingEnqueue,
      ],
      [
        hook.id,
        opts.dedupTtlS,
        opts.retentionS,
        hook.receivedAt,
        JSON.stringify(meta),
        JSON.stringify(hook.headers),
        hook.body,
      ],
    )) as [number, string?, number?];
    if (reply[0] === 1) return { kind: "new" };
    return {
      kind: "duplicate",
      firstId: reply[1] as HookId,
      enqueueState: reply[2] === 1 ? "persisted" : "enqueued",
    };
  }

  /**
   * Every sink job of `id` exists: recovery no longer needs to look at it. Marks made within one tick go
   * out as one ZREM, which keeps this off the ingest path's cost.
   */
  markEnqueued(id: HookId): Promise<void> {
    return this.enqueuedMarks.add(id);
  }

  /**
   * The record with every sink's state; with `sink`, only what one delivery attempt needs (a cheaper
   * read on the hot path: four fields) and only that sink's state.
   */
  async load(id: HookId, sink?: string): Promise<StoredHook | undefined> {
    const key = this.keys.hook(id);
    let raw: Record<string, Buffer | undefined>;
    if (sink === undefined) {
      raw = await this.redis.hgetallBuffer(key);
    } else {
      const [meta, hdr, body, state] = await this.redis.hmgetBuffer(
        key,
        "meta",
        "hdr",
        "body",
        SINK_FIELD + sink,
      );
      raw = { meta: meta ?? undefined, hdr: hdr ?? undefined, body: body ?? undefined };
      if (state) raw[SINK_FIELD + sink] = state;
    }
    if (raw.meta === undefined || raw.body === undefined) return undefined;
    const meta = JSON.parse(raw.meta.toString("utf8")) as StoredMeta;
    const sinkStates: Record<string, SinkDeliveryState> = {};
    for (const name of sink === undefined ? meta.sinks : [sink]) {
      const state = raw[SINK_FIELD + name];
      sinkStates[name] =
        state === undefined ? PENDING : (JSON.parse(state.toString("utf8")) as SinkDeliveryState);
    }
    return { hook: toHookRecord(id, meta, raw.hdr, raw.body), sinkStates };
  }

  /**
   * Record one sink's state; resolves false when the record has expired. Writes made within one tick
   * go out as one script call: on the delivery path this is one write per attempt.
   */
  setSinkState(id: HookId, sink: string, state: SinkDeliveryState): Promise<boolean> {
    return this.stateWrites.add({
      key: this.keys.hook(id),
      field: SINK_FIELD + sink,
      json: JSON.stringify(state),
    });
  }

  /** Hook ids persisted before `olderThanMs` and not yet confirmed enqueued, oldest first. */
  async pendingEnqueue(olderThanMs: number, limit: number): Promise<HookId[]> {
    return (await this.redis.zrangebyscore(
      this.keys.pendingEnqueue,
      "-inf",
      olderThanMs,
      "LIMIT",
      0,
      limit,
    )) as HookId[];
  }

  /** Drop a pending-enqueue entry whose record has expired. */
  async forgetPending(id: HookId): Promise<void> {
    await this.redis.zrem(this.keys.pendingEnqueue, id);
  }
}

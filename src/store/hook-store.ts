// Hook records in Redis: the durable truth every job points at. Jobs carry ids only, so a body is
// stored once however many sinks and retries read it.
import type { Redis } from "ioredis";
import { PENDING, type SinkDeliveryState } from "../domain/delivery-state.ts";
import type { HookRecord } from "../domain/hook.ts";
import type { HookId } from "../domain/ids.ts";
import type { Keys } from "./keys.ts";
import { LuaScript } from "./lua-script.ts";

const persistHook = new LuaScript("persist-hook-3.lua", 3);
const updateSinkState = new LuaScript("update-sink-state-1.lua", 1);

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

export class HookStore {
  private enqueued: HookId[] = [];
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly keys: Keys,
  ) {}

  /** Write `hook` unless its dedup key is live; one atomic round trip. */
  async persist(hook: HookRecord, opts: { dedupTtlS: number; retentionS: number }): Promise<PersistOutcome> {
    const fields: (string | Buffer)[] = [
      "src", hook.source,
      "rat", String(hook.receivedAt),
      "sha", hook.sha256,
      "dk", hook.dedupKey,
      "ik", hook.idempotencyKey,
      "hdr", JSON.stringify(hook.headers),
      "sinks", hook.sinks.join(","),
      "body", hook.body,
    ]; // prettier-ignore
    if (hook.tenant !== undefined) fields.push("ten", hook.tenant);
    if (hook.contentType !== undefined) fields.push("ct", hook.contentType);
    const reply = (await persistHook.run(
      this.redis,
      [
        this.keys.dedup(hook.tenant, hook.source, hook.dedupKey),
        this.keys.hook(hook.id),
        this.keys.pendingEnqueue,
      ],
      [hook.id, opts.dedupTtlS, opts.retentionS, hook.receivedAt, "", ...fields],
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
    this.enqueued.push(id);
    this.flushing ??= new Promise<void>((resolve, reject) => {
      setImmediate(() => {
        const ids = this.enqueued;
        this.enqueued = [];
        this.flushing = undefined;
        this.redis.zrem(this.keys.pendingEnqueue, ...ids).then(() => resolve(), reject);
      });
    });
    return this.flushing;
  }

  async load(id: HookId): Promise<StoredHook | undefined> {
    const raw = await this.redis.hgetallBuffer(this.keys.hook(id));
    const text = (f: string): string | undefined => raw[f]?.toString("utf8");
    const source = text("src");
    const body = raw.body;
    if (source === undefined || body === undefined) return undefined;
    const sinks = (text("sinks") ?? "").split(",").filter((s) => s.length > 0);
    const sinkStates: Record<string, SinkDeliveryState> = {};
    for (const sink of sinks) {
      const state = text(SINK_FIELD + sink);
      sinkStates[sink] = state === undefined ? PENDING : (JSON.parse(state) as SinkDeliveryState);
    }
    return {
      hook: {
        id,
        source,
        tenant: text("ten"),
        receivedAt: Number(text("rat")),
        contentType: text("ct"),
        headers: JSON.parse(text("hdr") ?? "{}") as Record<string, string>,
        body,
        sha256: text("sha") ?? "",
        dedupKey: text("dk") ?? "",
        idempotencyKey: text("ik") ?? id,
        sinks,
      },
      sinkStates,
    };
  }

  /** Record one sink's state; false when the record has expired. */
  async setSinkState(id: HookId, sink: string, state: SinkDeliveryState): Promise<boolean> {
    const n = await updateSinkState.run(
      this.redis,
      [this.keys.hook(id)],
      [SINK_FIELD + sink, JSON.stringify(state)],
    );
    return n === 1;
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

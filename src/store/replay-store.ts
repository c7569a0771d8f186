// Replays as durable records in Redis. The record is the truth (filter, snapshot time, cursor,
// in-flight batch, counters); its job on the `replays` queue (queue/replay-queue.ts) only says "a
// runner should be working on this", so BullMQ's stalled-job recovery hands a replay to another
// runner when the one running it dies, and the record tells that runner where to pick up. Writes of
// a running replay are fenced by that job's lock, which lives in the same hash tag as the record.
import type { RedisClient } from "./redis-client.ts";
import { type ReplayId, newId } from "../domain/ids.ts";
import type { ReplayCursor, ReplayFilter, ReplayState } from "../domain/replay.ts";
import type { DlqIndexName, Keys } from "./keys.ts";
import { LuaScript } from "./lua-script.ts";
import type { OpsOutbox } from "./ops-outbox.ts";

const beginBatch = new LuaScript("begin-replay-batch-2.lua", 2);
// On a single Redis it also marks its outbox in the drainer's dirty set (another slot; see OpsOutbox).
const commitStep = new LuaScript("commit-replay-step-n.lua", "n", { oneSlotOnClusterOnly: true });
const setState = new LuaScript("set-replay-state-1.lua", 1);
const createCapped = new LuaScript("create-replay-3.lua", 3);

/** A batch a runner has announced and not yet committed. */
export interface InflightBatch {
  readonly ids: readonly string[];
  readonly end: ReplayCursor | null;
}

export interface ReplayRecord {
  readonly id: ReplayId;
  readonly state: ReplayState;
  /** The tenant of the token that created it: only that tenant's entries, only visible to it. */
  readonly tenant: string | undefined;
  readonly filter: ReplayFilter;
  readonly rate_per_s: number;
  /** Also the snapshot: only entries dead at or before this instant are moved. */
  readonly created_at: number;
  readonly updated_at: number;
  readonly finished_at: number | undefined;
  readonly matched: number;
  readonly moved: number;
  readonly failed: number;
  /** Upper bound on `matched`, known at creation (for progress bars). */
  readonly total_estimate: number;
  /** The DLQ index walked, or undefined when the replay names its entries (`targets`). */
  readonly index: DlqIndexName | undefined;
  /** Explicit DLQ entry ids, hook ids already expanded. */
  readonly targets: readonly string[] | undefined;
  /** null before the first step. */
  readonly cursor: ReplayCursor | null;
  readonly inflight: InflightBatch | undefined;
}

export interface NewReplay {
  readonly tenant: string | undefined;
  readonly filter: ReplayFilter;
  readonly rate_per_s: number;
  readonly index: DlqIndexName | undefined;
  readonly targets: readonly string[] | undefined;
  readonly total_estimate: number;
  readonly created_at: number;
}

/** One step's outcome, committed atomically with the cursor. */
export interface ReplayStep {
  readonly end: ReplayCursor | null;
  readonly matched: number;
  readonly moved: number;
  readonly failed: number;
  readonly final?: "done" | "cancelled";
}

export type SetStateResult = "ok" | "missing" | "done" | "cancelled";

/** A replay created, or refused because its tenant already has `live` replays running or paused. */
export type CreateResult =
  | { readonly kind: "created"; readonly record: ReplayRecord }
  | { readonly kind: "at_cap"; readonly live: number };

export interface ReplayListQuery {
  readonly limit: number;
  /** The last id of the previous page. */
  readonly cursor?: string;
  /** Which records to return (visibility to a tenant, a state). */
  readonly filter: (record: ReplayRecord) => boolean;
}

const LIST_BATCH = 200;
const MAX_LIST_SCAN = 5000;

export class ReplayStore {
  /** `facts`: where a replay's end is recorded as an operational fact (switchyard.replay.finished). */
  constructor(
    private readonly redis: RedisClient,
    readonly keys: Keys,
    private readonly retentionS: number,
    private readonly facts?: OpsOutbox,
  ) {}

  /**
   * Persist a new replay (its job is added by the caller), unless its tenant already has `maxLive`
   * replays running or paused (see create-replay-3.lua).
   */
  async create(input: NewReplay, maxLive: number): Promise<CreateResult> {
    const id = newId("rp", input.created_at);
    const fields: Record<string, string> = {
      id,
      state: "running",
      filter: JSON.stringify(input.filter),
      rate_per_s: String(input.rate_per_s),
      created_at: String(input.created_at),
      updated_at: String(input.created_at),
      matched: "0",
      moved: "0",
      failed: "0",
      total_estimate: String(input.total_estimate),
    };
    if (input.tenant !== undefined) fields.tenant = input.tenant;
    if (input.index !== undefined) fields.index = input.index;
    if (input.targets !== undefined) fields.targets = JSON.stringify(input.targets);
    const [created, live] = (await createCapped.run(
      this.redis,
      [this.keys.replay(id), this.keys.replayIndex, this.keys.replaysLive(input.tenant)],
      [maxLive, id, this.keys.replayRecordPrefix, ...Object.entries(fields).flat()],
    )) as [number, number];
    if (created !== 1) return { kind: "at_cap", live };
    await this.forgetExpired();
    return { kind: "created", record: (await this.get(id)) as ReplayRecord };
  }

  /** Drop a replay whose job could not be added. */
  async delete(id: ReplayId): Promise<void> {
    await this.redis.multi().del(this.keys.replay(id)).zrem(this.keys.replayIndex, id).exec();
  }

  /**
   * Replays newest first, `filter` applied (a tenant's, a state), at most `limit`; `next` continues
   * after the last id looked at. Index members whose record has expired are dropped on the way.
   */
  async list(q: ReplayListQuery): Promise<{ replays: ReplayRecord[]; next: string | undefined }> {
    const out: ReplayRecord[] = [];
    let from = q.cursor === undefined ? "+" : `(${q.cursor}`;
    let scanned = 0;
    for (;;) {
      const ids = await this.redis.zrevrangebylex(this.keys.replayIndex, from, "-", "LIMIT", 0, LIST_BATCH);
      const records = await this.getMany(ids);
      for (const [i, id] of ids.entries()) {
        scanned += 1;
        const record = records[i];
        if (record && q.filter(record)) out.push(record);
        if (out.length === q.limit) {
          const more = i < ids.length - 1 || ids.length === LIST_BATCH;
          return { replays: out, next: more ? id : undefined };
        }
      }
      if (ids.length < LIST_BATCH) return { replays: out, next: undefined };
      const last = ids[ids.length - 1] as string;
      // A filter that matches little must not walk the whole history in one request.
      if (scanned >= MAX_LIST_SCAN) return { replays: out, next: last };
      from = `(${last}`;
    }
  }

  private async getMany(ids: readonly string[]): Promise<(ReplayRecord | undefined)[]> {
    if (ids.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const id of ids) pipeline.hgetall(this.keys.replay(id));
    const replies = (await pipeline.exec()) ?? [];
    const gone: string[] = [];
    const records = ids.map((id, i) => {
      const [err, raw] = replies[i] ?? [null, {}];
      if (err) throw err;
      const fields = (raw ?? {}) as Record<string, string>;
      if (fields.id === undefined) gone.push(id);
      return fields.id === undefined ? undefined : parseRecord(fields);
    });
    if (gone.length > 0) await this.redis.zrem(this.keys.replayIndex, ...gone);
    return records;
  }

  /** Drop index members whose record has expired (replays are operator actions: the index is small). */
  private async forgetExpired(): Promise<void> {
    const ids = await this.redis.zrange(this.keys.replayIndex, 0, -1);
    if (ids.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const id of ids) pipeline.exists(this.keys.replay(id));
    const replies = (await pipeline.exec()) ?? [];
    const gone = ids.filter((_, i) => replies[i]?.[1] === 0);
    if (gone.length > 0) await this.redis.zrem(this.keys.replayIndex, ...gone);
  }

  async get(id: ReplayId): Promise<ReplayRecord | undefined> {
    const raw = await this.redis.hgetall(this.keys.replay(id));
    return raw.id === undefined ? undefined : parseRecord(raw);
  }

  /** The state alone: what a runner polls between steps. */
  async state(id: ReplayId): Promise<ReplayState | undefined> {
    return ((await this.redis.hget(this.keys.replay(id), "state")) as ReplayState | null) ?? undefined;
  }

  async setState(
    id: ReplayId,
    state: Exclude<ReplayState, "done">,
    now = Date.now(),
  ): Promise<SetStateResult> {
    return (await setState.run(this.redis, [this.keys.replay(id)], [state, now])) as SetStateResult;
  }

  /**
   * Announce a batch before moving it; false when `token` no longer holds the job's lock (`lockKey`,
   * see ReplayQueue.lockKey).
   */
  async begin(
    id: ReplayId,
    lockKey: string,
    token: string,
    batch: InflightBatch,
    now = Date.now(),
  ): Promise<boolean> {
    const reply = await beginBatch.run(
      this.redis,
      [this.keys.replay(id), lockKey],
      [token, JSON.stringify(batch), now],
    );
    return reply === 1;
  }

  /**
   * Commit a step (see commit-replay-step-n.lua), and with the last step record the replay's end as a
   * fact; false when `token` no longer holds the lock.
   */
  async commit(
    record: Pick<ReplayRecord, "id" | "tenant">,
    lockKey: string,
    token: string,
    step: ReplayStep,
    now = Date.now(),
  ): Promise<boolean> {
    const outbox =
      step.final !== undefined && this.facts?.enabled
        ? this.facts.outboxOf(this.keys.replay(record.id))
        : undefined;
    const factKeys = outbox === undefined ? [] : [outbox, ...(this.facts?.dirtyKeys ?? [])];
    const reply = await commitStep.run(
      this.redis,
      [this.keys.replay(record.id), lockKey, this.keys.replaysLive(record.tenant), ...factKeys],
      [
        token,
        JSON.stringify(step.end),
        step.matched,
        step.moved,
        step.failed,
        now,
        step.final ?? "",
        this.retentionS,
        record.id,
      ],
    );
    if (reply === 2 && outbox !== undefined) await this.facts?.wrote(outbox);
    return reply === 1 || reply === 2;
  }
}

function json<T>(value: string | undefined): T | undefined {
  return value === undefined ? undefined : (JSON.parse(value) as T);
}

export function parseRecord(raw: Record<string, string>): ReplayRecord {
  return {
    id: raw.id as ReplayId,
    state: (raw.state ?? "running") as ReplayState,
    tenant: raw.tenant,
    filter: json<ReplayFilter>(raw.filter) ?? {},
    rate_per_s: Number(raw.rate_per_s ?? 0),
    created_at: Number(raw.created_at ?? 0),
    updated_at: Number(raw.updated_at ?? 0),
    finished_at: raw.finished_at === undefined ? undefined : Number(raw.finished_at),
    matched: Number(raw.matched ?? 0),
    moved: Number(raw.moved ?? 0),
    failed: Number(raw.failed ?? 0),
    total_estimate: Number(raw.total_estimate ?? 0),
    index: raw.index as DlqIndexName | undefined,
    targets: json<string[]>(raw.targets),
    cursor: json<ReplayCursor | null>(raw.cursor) ?? null,
    inflight: json<InflightBatch>(raw.inflight),
  };
}

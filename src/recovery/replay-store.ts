// Replays as durable records in Redis plus one BullMQ job each on the `replays` queue. The record is
// the truth (filter, snapshot time, cursor, in-flight batch, counters); the job only says "a runner
// should be working on this", so BullMQ's stalled-job recovery hands a replay to another runner
// when the one running it dies, and the record tells that runner where to pick up.
import { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { type ReplayId, newId } from "../domain/ids.ts";
import { type DlqEntry, dlqIndexKeys } from "../store/dlq-store.ts";
import type { Keys } from "../store/keys.ts";
import { LuaScript } from "../store/lua-script.ts";
import type { ReplayCursor, ReplayFilter, ReplayState } from "./replay-filter.ts";

const beginBatch = new LuaScript("begin-replay-batch-2.lua", 2);
const commitBatch = new LuaScript("commit-replay-batch-2.lua", 2);
const setState = new LuaScript("set-replay-state-1.lua", 1);

export const REPLAY_QUEUE = "replays";
export const REPLAY_JOB_NAME = "replay";

export interface ReplayJobData {
  readonly replayId: ReplayId;
}

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
  readonly index: string | undefined;
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
  readonly index: string | undefined;
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
  /** Entries moved back (or found gone): unindexed if they are still the death the replay saw. */
  readonly unindex: readonly DlqEntry[];
  readonly final?: "done" | "cancelled";
}

export type SetStateResult = "ok" | "missing" | "done" | "cancelled";

/** Replay jobs retry on errors (Redis away) for a while; the record keeps their progress meanwhile. */
const JOB_OPTIONS = {
  attempts: 100,
  backoff: { type: "fixed", delay: 2000 },
  removeOnComplete: { age: 86_400 },
  removeOnFail: { age: 7 * 86_400 },
} as const;

export class ReplayStore {
  readonly queue: Queue<ReplayJobData>;

  constructor(
    private readonly redis: Redis,
    readonly keys: Keys,
    private readonly retentionS: number,
  ) {
    this.queue = new Queue<ReplayJobData>(REPLAY_QUEUE, { connection: redis, prefix: keys.base });
  }

  /** Persist a replay, then hand it to the runners. */
  async create(input: NewReplay, opts: { enqueue?: boolean } = {}): Promise<ReplayRecord> {
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
    await this.redis.hset(this.keys.replay(id), fields);
    if (opts.enqueue !== false) {
      try {
        await this.enqueue(id);
      } catch (err) {
        await this.redis.del(this.keys.replay(id)).catch(() => undefined);
        throw err;
      }
    }
    return (await this.get(id)) as ReplayRecord;
  }

  /** Add the replay's job (idempotent: the job id is the replay id). */
  async enqueue(id: ReplayId): Promise<void> {
    await this.queue.add(REPLAY_JOB_NAME, { replayId: id }, { ...JOB_OPTIONS, jobId: id });
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

  /** The BullMQ lock key of a replay's job: its value is the token of the runner holding it. */
  lockKey(id: ReplayId): string {
    return `${this.queue.qualifiedName}:${id}:lock`;
  }

  /** Announce a batch before moving it; false when `token` no longer holds the job's lock. */
  async begin(id: ReplayId, token: string, batch: InflightBatch, now = Date.now()): Promise<boolean> {
    const reply = await beginBatch.run(
      this.redis,
      [this.keys.replay(id), this.lockKey(id)],
      [token, JSON.stringify(batch), now],
    );
    return reply === 1;
  }

  /** Commit a step (see commit-replay-batch-2.lua); false when `token` no longer holds the lock. */
  async commit(
    record: Pick<ReplayRecord, "id" | "created_at">,
    token: string,
    step: ReplayStep,
    now = Date.now(),
  ): Promise<boolean> {
    const unindex: (string | number)[] = [step.unindex.length];
    for (const entry of step.unindex) {
      const indexes = dlqIndexKeys(this.keys, entry);
      unindex.push(entry.id, this.keys.dlqEntry(entry.id), indexes.length, ...indexes);
    }
    const reply = await commitBatch.run(
      this.redis,
      [this.keys.replay(record.id), this.lockKey(record.id)],
      [
        token,
        record.created_at,
        JSON.stringify(step.end),
        step.matched,
        step.moved,
        step.failed,
        now,
        step.final ?? "",
        this.retentionS,
        ...unindex,
      ],
    );
    return reply === 1;
  }

  async close(): Promise<void> {
    await this.queue.close();
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
    index: raw.index,
    targets: json<string[]>(raw.targets),
    cursor: json<ReplayCursor | null>(raw.cursor) ?? null,
    inflight: json<InflightBatch>(raw.inflight),
  };
}

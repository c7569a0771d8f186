// The index of dead-lettered deliveries. BullMQ's failed set holds the jobs themselves; this index
// holds what an operator filters on (source, sink, class, tenant, time) so a DLQ page costs O(page),
// not a scan of every failed job.
import type { Redis } from "ioredis";
import type { ErrorClass } from "../domain/error-class.ts";
import type { Keys } from "./keys.ts";

export interface DlqEntry {
  /** The delivery job id (`<hook id>-<sink>`). */
  readonly id: string;
  readonly hook_id: string;
  readonly source: string;
  readonly tenant: string | undefined;
  readonly sink: string;
  readonly error_class: ErrorClass;
  readonly reason: string;
  readonly attempts: number;
  readonly first_attempt_at: number;
  readonly last_attempt_at: number;
  readonly dead_at: number;
  readonly replay_id?: string;
}

/** The filter indexes an entry is listed in. */
export function dlqIndexKeys(keys: Keys, e: Pick<DlqEntry, "source" | "sink" | "error_class" | "tenant">): string[] {
  const out = [keys.dlqAll, keys.dlqBy("source", e.source), keys.dlqBy("sink", e.sink), keys.dlqBy("class", e.error_class)];
  if (e.tenant !== undefined) out.push(keys.dlqBy("tenant", e.tenant));
  return out;
}

export class DlqStore {
  constructor(
    readonly redis: Redis,
    readonly keys: Keys,
    private readonly retentionS: number,
  ) {}

  /** Index a dead delivery (idempotent: the same job id overwrites its entry). */
  async add(entry: DlqEntry): Promise<void> {
    const fields: Record<string, string> = {};
    for (const [k, v] of Object.entries(entry)) if (v !== undefined) fields[k] = String(v);
    const tx = this.redis.multi().del(this.keys.dlqEntry(entry.id)).hset(this.keys.dlqEntry(entry.id), fields);
    tx.expire(this.keys.dlqEntry(entry.id), this.retentionS);
    for (const key of dlqIndexKeys(this.keys, entry)) tx.zadd(key, entry.dead_at, entry.id);
    await tx.exec();
  }

  async get(id: string): Promise<DlqEntry | undefined> {
    const raw = await this.redis.hgetall(this.keys.dlqEntry(id));
    return raw.id === undefined ? undefined : parseEntry(raw);
  }

  /** Remove an entry from every index (it was delivered after all, replayed, or purged). */
  async remove(id: string): Promise<boolean> {
    const entry = await this.get(id);
    if (!entry) return false;
    const tx = this.redis.multi().del(this.keys.dlqEntry(id));
    for (const key of dlqIndexKeys(this.keys, entry)) tx.zrem(key, id);
    await tx.exec();
    return true;
  }
}

export function parseEntry(raw: Record<string, string>): DlqEntry {
  return {
    id: raw.id ?? "",
    hook_id: raw.hook_id ?? "",
    source: raw.source ?? "",
    tenant: raw.tenant,
    sink: raw.sink ?? "",
    error_class: (raw.error_class ?? "transient") as ErrorClass,
    reason: raw.reason ?? "",
    attempts: Number(raw.attempts ?? 0),
    first_attempt_at: Number(raw.first_attempt_at ?? 0),
    last_attempt_at: Number(raw.last_attempt_at ?? 0),
    dead_at: Number(raw.dead_at ?? 0),
    ...(raw.replay_id !== undefined ? { replay_id: raw.replay_id } : {}),
  };
}

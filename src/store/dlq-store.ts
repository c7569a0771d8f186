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

/** What an operator narrows the DLQ by. Every field is optional; `tenant` comes from the token. */
export interface DlqFilter {
  readonly source?: string;
  readonly sink?: string;
  readonly error_class?: ErrorClass;
  readonly tenant?: string;
  /** Inclusive lower bound on `dead_at` (ms). */
  readonly since?: number;
  /** Exclusive upper bound on `dead_at` (ms). */
  readonly until?: number;
}

/**
 * A position in an index: the last member seen. Every index holds the same (dead_at, id) pairs and
 * Redis orders equal scores by member, so one position is valid in any index.
 */
export interface IndexPosition {
  readonly score: number;
  readonly id: string;
}

export interface DlqPage {
  /** Newest first. */
  readonly entries: readonly DlqEntry[];
  /** Where the next page starts; undefined when nothing older is left. */
  readonly next: IndexPosition | undefined;
}

export interface DlqListQuery extends DlqFilter {
  readonly limit: number;
  readonly after?: IndexPosition;
}

/** The filter indexes an entry is listed in. */
export function dlqIndexKeys(
  keys: Keys,
  e: Pick<DlqEntry, "source" | "sink" | "error_class" | "tenant">,
): string[] {
  const out = [
    keys.dlqAll,
    keys.dlqBy("source", e.source),
    keys.dlqBy("sink", e.sink),
    keys.dlqBy("class", e.error_class),
  ];
  if (e.tenant !== undefined) out.push(keys.dlqBy("tenant", e.tenant));
  return out;
}

/** Does `e` pass every field of `f`? (The index a scan walks already implies one of them.) */
export function matchesFilter(e: DlqEntry, f: DlqFilter): boolean {
  return (
    (f.source === undefined || e.source === f.source) &&
    (f.sink === undefined || e.sink === f.sink) &&
    (f.error_class === undefined || e.error_class === f.error_class) &&
    (f.tenant === undefined || e.tenant === f.tenant) &&
    (f.since === undefined || e.dead_at >= f.since) &&
    (f.until === undefined || e.dead_at < f.until)
  );
}

/** Score bounds of a scan, as Redis wants them: `hi` may be exclusive. */
export interface ScoreRange {
  readonly lo: number;
  readonly hi: number;
  readonly hiExclusive: boolean;
}

export function rangeOf(f: DlqFilter, notAfter = Infinity): ScoreRange {
  const until = f.until ?? Infinity;
  return until <= notAfter
    ? { lo: f.since ?? -Infinity, hi: until, hiExclusive: true }
    : { lo: f.since ?? -Infinity, hi: notAfter, hiExclusive: false };
}

const score = (n: number): string => (n === Infinity ? "+inf" : n === -Infinity ? "-inf" : String(n));
const upper = (r: ScoreRange): string => (r.hiExclusive && Number.isFinite(r.hi) ? "(" : "") + score(r.hi);

// Page sizes when a filter is not covered by the index walked: read ahead, but never without bound.
const MIN_SLICE = 100;
const MAX_SLICE = 1000;

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
    const tx = this.redis
      .multi()
      .del(this.keys.dlqEntry(entry.id))
      .hset(this.keys.dlqEntry(entry.id), fields);
    tx.expire(this.keys.dlqEntry(entry.id), this.retentionS);
    for (const key of dlqIndexKeys(this.keys, entry)) tx.zadd(key, entry.dead_at, entry.id);
    await tx.exec();
  }

  async get(id: string): Promise<DlqEntry | undefined> {
    const raw = await this.redis.hgetall(this.keys.dlqEntry(id));
    return raw.id === undefined ? undefined : parseEntry(raw);
  }

  /** Entries by id in one round trip; missing ones (expired, removed) are undefined. */
  async getMany(ids: readonly string[]): Promise<(DlqEntry | undefined)[]> {
    if (ids.length === 0) return [];
    const pipe = this.redis.pipeline();
    for (const id of ids) pipe.hgetall(this.keys.dlqEntry(id));
    const replies = (await pipe.exec()) ?? [];
    return replies.map(([err, raw]) => {
      if (err) throw err;
      const fields = raw as Record<string, string>;
      return fields.id === undefined ? undefined : parseEntry(fields);
    });
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

  /** The index a scan for `f` should walk: the smallest of those `f` names (one ZCARD each, pipelined). */
  async narrowestIndex(f: DlqFilter): Promise<string> {
    const candidates: string[] = [];
    if (f.source !== undefined) candidates.push(this.keys.dlqBy("source", f.source));
    if (f.sink !== undefined) candidates.push(this.keys.dlqBy("sink", f.sink));
    if (f.error_class !== undefined) candidates.push(this.keys.dlqBy("class", f.error_class));
    if (f.tenant !== undefined) candidates.push(this.keys.dlqBy("tenant", f.tenant));
    if (candidates.length === 0) return this.keys.dlqAll;
    if (candidates.length === 1) return candidates[0] as string;
    const pipe = this.redis.pipeline();
    for (const key of candidates) pipe.zcard(key);
    const sizes = ((await pipe.exec()) ?? []).map(([, n]) => Number(n));
    let best = 0;
    sizes.forEach((n, i) => {
      if (n < (sizes[best] ?? Infinity)) best = i;
    });
    return candidates[best] as string;
  }

  /** How many members of `index` fall in `range` (an upper bound on what a filtered scan finds). */
  async countInRange(index: string, range: ScoreRange): Promise<number> {
    return this.redis.zcount(index, score(range.lo), upper(range));
  }

  /**
   * Up to `count` members of `index` within `range` that come strictly after `after`, oldest first
   * (`asc`) or newest first (`desc`). `more` says whether Redis had further members past this slice.
   */
  async slice(
    index: string,
    order: "asc" | "desc",
    range: ScoreRange,
    after: IndexPosition | undefined,
    count: number,
  ): Promise<{ members: IndexPosition[]; more: boolean }> {
    const hi = upper(range);
    const lo = score(range.lo);
    // Resume at the cursor's score (inclusive) and drop what was already seen at that score.
    const from = after === undefined ? (order === "asc" ? lo : hi) : String(after.score);
    const to = order === "asc" ? hi : lo;
    const seen = (m: IndexPosition): boolean =>
      after !== undefined &&
      m.score === after.score &&
      (order === "asc" ? m.id <= after.id : m.id >= after.id);
    for (let offset = 0; ;) {
      const raw =
        order === "asc"
          ? await this.redis.zrangebyscore(index, from, to, "WITHSCORES", "LIMIT", offset, count)
          : await this.redis.zrevrangebyscore(index, from, to, "WITHSCORES", "LIMIT", offset, count);
      const members: IndexPosition[] = [];
      for (let i = 0; i + 1 < raw.length; i += 2)
        members.push({ id: raw[i] as string, score: Number(raw[i + 1]) });
      const fresh = members.filter((m) => !seen(m));
      const more = members.length === count;
      // A long run of equal scores at the cursor: skip over it rather than answer with nothing.
      if (fresh.length > 0 || !more) return { members: fresh, more };
      offset += members.length;
    }
  }

  /**
   * One page of entries, newest first. Walks the narrowest index for the filter and checks the rest
   * on each entry, reading at most `maxScan` index members: a page can come back short (even empty)
   * with a `next` position when the filter is sparse, so a request never costs more than that.
   */
  async list(q: DlqListQuery, maxScan = Math.max(q.limit * 5, 1000)): Promise<DlqPage> {
    const index = await this.narrowestIndex(q);
    const range = rangeOf(q);
    // The filter is exact on the index when it names at most one of source/sink/class/tenant.
    const named = [q.source, q.sink, q.error_class, q.tenant].filter((v) => v !== undefined).length;
    const exact = named <= 1;
    const entries: DlqEntry[] = [];
    let after = q.after;
    let scanned = 0;
    for (;;) {
      const want = q.limit - entries.length;
      const count = exact ? want + 1 : Math.min(MAX_SLICE, Math.max(MIN_SLICE, want * 2));
      const { members, more } = await this.slice(index, "desc", range, after, count);
      const loaded = await this.getMany(members.map((m) => m.id));
      for (let i = 0; i < members.length; i++) {
        const member = members[i] as IndexPosition;
        const entry = loaded[i];
        if (entries.length === q.limit) return { entries, next: after };
        scanned += 1;
        after = member;
        if (entry && matchesFilter(entry, q)) entries.push(entry);
      }
      if (!more) return { entries, next: undefined };
      if (entries.length === q.limit || scanned >= maxScan) return { entries, next: after };
    }
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

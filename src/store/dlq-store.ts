// The DLQ: an index over dead delivery rows. The ledger lists a row in its bucket's filter indexes in
// the same script that kills it (and unlists it when it is revived or purged); this module only reads
// them, merging the buckets, so a page costs O(page × buckets), never a scan of every dead row.
import { type RedisClient, pipelineByNode } from "./redis-client.ts";
import {
  type DlqEntry,
  type DlqFilter,
  type DlqListQuery,
  type DlqPage,
  type IndexPosition,
  type ScoreRange,
  entryOf,
  matchesFilter,
  rangeOf,
} from "../domain/dlq.ts";
import type { DeliveryId } from "../domain/ids.ts";
import type { DeliveryStore } from "./delivery-store.ts";
import type { DlqIndexName, Keys } from "./keys.ts";
import { LuaScript } from "./lua-script.ts";
import { sliceByScore } from "./score-slice.ts";

const forgetEmpty = new LuaScript("forget-empty-indexes-n.lua", "n");

/** The index names a filter could walk (the one with fewest members wins). */
function candidateIndexes(f: DlqFilter): DlqIndexName[] {
  const out: DlqIndexName[] = [];
  if (f.source !== undefined) out.push(`source:${f.source}`);
  if (f.sink !== undefined) out.push(`sink:${f.sink}`);
  if (f.endpoint !== undefined) out.push(`endpoint:${f.endpoint}`);
  if (f.error_class !== undefined) out.push(`class:${f.error_class}`);
  if (f.tenant !== undefined) out.push(`tenant:${f.tenant}`);
  return out;
}

const score = (n: number): string => (n === Infinity ? "+inf" : n === -Infinity ? "-inf" : String(n));
const upper = (r: ScoreRange): string => (r.hiExclusive && Number.isFinite(r.hi) ? "(" : "") + score(r.hi);
const before = (a: IndexPosition, b: IndexPosition): boolean =>
  a.score < b.score || (a.score === b.score && a.id < b.id);

// Page sizes when a filter is not covered by the index walked: read ahead, but never without bound.
const MIN_SLICE = 100;
const MAX_SLICE = 1000;

export class DlqStore {
  constructor(
    readonly redis: RedisClient,
    readonly keys: Keys,
    private readonly deliveries: DeliveryStore,
  ) {}

  async get(id: DeliveryId): Promise<DlqEntry | undefined> {
    return (await this.getMany([id]))[0];
  }

  /** Entries by id in one round trip; rows that are gone, not dead or purged are undefined. */
  async getMany(ids: readonly DeliveryId[]): Promise<(DlqEntry | undefined)[]> {
    return (await this.deliveries.getMany(ids)).map(entryOf);
  }

  /** The index a scan for `f` should walk: the smallest of those `f` names, summed over buckets. */
  async narrowestIndex(f: DlqFilter): Promise<DlqIndexName> {
    const candidates = candidateIndexes(f);
    if (candidates.length === 0) return "all";
    if (candidates.length === 1) return candidates[0] as DlqIndexName;
    const sizes = await Promise.all(candidates.map((name) => this.countInRange(name, rangeOf({}))));
    let best = 0;
    sizes.forEach((n, i) => {
      if (n < (sizes[best] ?? Infinity)) best = i;
    });
    return candidates[best] as DlqIndexName;
  }

  /** How many members of index `name` fall in `range`, over every bucket. */
  async countInRange(name: DlqIndexName, range: ScoreRange): Promise<number> {
    const counts = await pipelineByNode(
      this.redis,
      this.keys.buckets.map((b) => this.keys.dlqIndex(b, name)),
      (pipe, key) => pipe.zcount(key, score(range.lo), upper(range)),
    );
    return counts.reduce((sum: number, n) => sum + Number(n ?? 0), 0);
  }

  /**
   * Up to `count` members of index `name` within `range` that come strictly after `after`, oldest
   * first (`asc`) or newest first (`desc`), merged over every bucket. `more`: members may remain.
   */
  async slice(
    name: DlqIndexName,
    order: "asc" | "desc",
    range: ScoreRange,
    after: IndexPosition | undefined,
    count: number,
  ): Promise<{ members: IndexPosition[]; more: boolean }> {
    const parts = await Promise.all(
      this.keys.buckets.map((b) => this.sliceOne(this.keys.dlqIndex(b, name), order, range, after, count)),
    );
    const merged = parts.flatMap((p) => p.members);
    merged.sort((a, b) => (order === "asc" ? (before(a, b) ? -1 : 1) : before(a, b) ? 1 : -1));
    const members = merged.slice(0, count);
    return { members, more: merged.length > count || parts.some((p) => p.more) };
  }

  private async sliceOne(
    index: string,
    order: "asc" | "desc",
    range: ScoreRange,
    after: IndexPosition | undefined,
    count: number,
  ): Promise<{ members: IndexPosition[]; more: boolean }> {
    const hi = upper(range);
    const lo = score(range.lo);
    return order === "asc"
      ? sliceByScore(this.redis, index, order, lo, hi, after, count)
      : sliceByScore(this.redis, index, order, hi, lo, after, count);
  }

  /**
   * One page of entries, newest first. Walks the narrowest index for the filter and checks the rest
   * on each entry, reading at most `maxScan` index members: a page can come back short (even empty)
   * with a `next` position when the filter is sparse, so a request never costs more than that.
   */
  async list(q: DlqListQuery, maxScan = Math.max(q.limit * 5, 1000)): Promise<DlqPage> {
    const index = await this.narrowestIndex(q);
    const range = rangeOf(q);
    // The filter is exact on the index when it names at most one field.
    const exact = candidateIndexes(q).length <= 1;
    const entries: DlqEntry[] = [];
    let after = q.after;
    let scanned = 0;
    for (;;) {
      const want = q.limit - entries.length;
      const count = exact ? want + 1 : Math.min(MAX_SLICE, Math.max(MIN_SLICE, want * 2));
      const { members, more } = await this.slice(index, "desc", range, after, count);
      const loaded = await this.getMany(members.map((m) => m.id as DeliveryId));
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

  /**
   * Drop index members of rows dead before `cutoff` (their rows' retention has passed or is about to),
   * bucket by bucket, with ZREMRANGEBYSCORE over the indexes each bucket registered; empty indexes
   * leave the registry. Returns how many members went.
   */
  async trim(cutoff: number): Promise<number> {
    let removed = 0;
    for (const b of this.keys.buckets) {
      const registry = this.keys.dlqIndexes(b);
      const indexes = await this.redis.smembers(registry);
      if (indexes.length === 0) continue;
      const pipe = this.redis.pipeline();
      for (const key of indexes) pipe.zremrangebyscore(key, "-inf", `(${cutoff}`);
      for (const [, n] of (await pipe.exec()) ?? []) removed += Number(n ?? 0);
      await forgetEmpty.run(this.redis, [registry, ...indexes], []);
    }
    return removed;
  }
}

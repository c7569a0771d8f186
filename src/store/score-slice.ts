// Paging a sorted set by (score, member): the DLQ indexes and the endpoints' delivery lists resume a
// page at a cursor's score and skip what was already seen at that score, so equal scores never cost
// a duplicate or a gap.
import type { IndexPosition } from "../domain/dlq.ts";
import type { RedisClient } from "./redis-client.ts";

/**
 * Up to `count` members of `key` from score `from` to `to` (Redis range bounds), in `order`, strictly
 * after `after` (by score, then member); `more` when Redis had `count` or more to give.
 */
export async function sliceByScore(
  redis: RedisClient,
  key: string,
  order: "asc" | "desc",
  from: string,
  to: string,
  after: IndexPosition | undefined,
  count: number,
): Promise<{ members: IndexPosition[]; more: boolean }> {
  // Resume at the cursor's score (inclusive) and drop what was already seen at that score.
  const start = after === undefined ? from : String(after.score);
  const seen = (m: IndexPosition): boolean =>
    after !== undefined && m.score === after.score && (order === "asc" ? m.id <= after.id : m.id >= after.id);
  for (let offset = 0; ;) {
    const raw =
      order === "asc"
        ? await redis.zrangebyscore(key, start, to, "WITHSCORES", "LIMIT", offset, count)
        : await redis.zrevrangebyscore(key, start, to, "WITHSCORES", "LIMIT", offset, count);
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

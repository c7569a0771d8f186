// Walks every key matching a pattern on every master, a batch at a time, for migrations that visit
// whole families of keys (events, dedup keys, endpoint gates) without KEYS blocking Redis.
import { type RedisClient, serversOf } from "../../redis-client.ts";

/** A SCAN MATCH pattern matching `text` literally. */
export function literal(text: string): string {
  return text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}

/** Calls `visit` with each batch of keys matching `pattern` (a SCAN MATCH pattern). */
export async function scanKeys(
  redis: RedisClient,
  pattern: string,
  visit: (batch: readonly string[]) => Promise<void>,
): Promise<void> {
  for (const server of serversOf(redis)) {
    let cursor = "0";
    do {
      const [next, batch] = await server.scan(cursor, "MATCH", pattern, "COUNT", 1000);
      cursor = next;
      if (batch.length > 0) await visit(batch);
    } while (cursor !== "0");
  }
}

/**
 * Every member of a sorted set whose scores are all 0 (the endpoint and replay indexes), a page at a
 * time in member order, each page after the last member seen: members added or removed meanwhile do
 * not shift the walk past one it has not seen.
 */
export async function forEachMember(
  redis: RedisClient,
  key: string,
  visit: (members: readonly string[]) => Promise<void>,
): Promise<void> {
  const page = 1000;
  let from = "-";
  for (;;) {
    const members = await redis.zrangebylex(key, from, "+", "LIMIT", 0, page);
    if (members.length > 0) await visit(members);
    const last = members[members.length - 1];
    if (members.length < page || last === undefined) return;
    from = `(${last}`;
  }
}

// The key census's classification, shared by the tests that count what a deployment leaves in Redis:
// every key under a prefix with its TTL, and which keys may stay without one (live state or configured
// things with an owner). A key kept for good that has no owner is an orphan.
import { type RedisClient, serversOf } from "../../src/store/redis-client.ts";

/** Every key under the gateway's prefix, with its TTL in seconds (-1: none). */
export async function census(redis: RedisClient, prefix: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const server of serversOf(redis)) {
    let cursor = "0";
    do {
      const [next, keys] = await server.scan(cursor, "MATCH", `{${prefix}[:}]*`, "COUNT", 1000);
      cursor = next;
      for (const key of keys) out.set(key, await server.ttl(key));
    } while (cursor !== "0");
  }
  for (const [key, ttl] of out) if (ttl === -2) out.delete(key); // gone while we looked
  return out;
}

/** Why a key may stay without an expiry, or undefined when it may not. */
export function owner(
  key: string,
  p: string,
  live: { endpoints: Set<string>; sinks: Set<string> },
): string | undefined {
  const rest = key.slice(p.length); // after `{<prefix>`
  const ep = /^:ep\}:endpoint:(ep_\w+)$/.exec(rest);
  if (ep) return live.endpoints.has(ep[1] ?? "") ? "a live endpoint's record" : undefined;
  if (/^:ep\}:(list|sub):/.test(rest)) return "the live endpoints' indexes";
  if (rest === ":ep}:event-types") return "the event catalog (types declared by API)";
  const gate = /^:ep:(ep_\w+)\}:(rate|inflight|inflight:waiting|breaker)$/.exec(rest);
  if (gate) return live.endpoints.has(gate[1] ?? "") ? "a live endpoint's limits" : undefined;
  // Its delivery list (trimmed as it is written) and its health buckets (expiring within a day).
  const listed = /^:ep:(ep_\w+)\}:(deliveries|stats:[mh]:\d+)$/.exec(rest);
  if (listed)
    return live.endpoints.has(listed[1] ?? "") ? "a live endpoint's deliveries and health" : undefined;
  const sink = /^:sink:([\w-]+)\}:breaker$/.exec(rest);
  if (sink) return live.sinks.has(sink[1] ?? "") ? "a configured sink's breaker" : undefined;
  if (rest === ":claim}:signing-key") return "the deployment's claim signing key";
  // A minute's budget of operational facts of one target: kept BUDGET_TTL_S (2 minutes), whatever retention_s.
  if (/^:ops\}:budget:(endpoint|sink):[\w-]+:\d+$/.test(rest))
    return "a minute's budget of operational facts";
  if (rest === ":layout}:version") return "the data layout this prefix holds";
  if (rest === ":sample}:queue-depths") return "the running API processes' sample";
  // A queue's own bookkeeping (BullMQ): its meta, id counter, capped event stream, stalled check.
  const queue = /^:([\w.-]+)\}:([\w.-]+):(meta|id|events|marker|stalled-check)$/.exec(rest);
  if (queue && queue[1] === queue[2]) return "a queue's bookkeeping";
  // The recovery scheduler, and its last ticks (at most 100, for an hour: shown in Bull Board); a tick
  // runs every recovery.interval_ms, so the census may also meet one waiting or in progress (holding
  // its lock, which lives as long as the worker's lock duration).
  if (
    /^:maintenance\}:maintenance:(repeat|repeat:recovery|repeat:recovery:\d+(:lock)?|delayed|completed|wait|active)$/.test(
      rest,
    )
  )
    return "the recovery scheduler";
  return undefined;
}

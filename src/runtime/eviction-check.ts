// Records must never be evicted: a Redis whose maxmemory-policy may drop keys under memory pressure
// can lose acknowledged hooks silently. Checked once at boot, on every master of a cluster: a loud
// warning, or a refusal to start with `redis.require_noeviction`.
import type { Logger } from "../observability/logger.ts";
import { type RedisClient, serversOf } from "../store/redis-client.ts";

export class EvictionPolicyError extends Error {}

export async function checkEvictionPolicy(
  redis: RedisClient,
  require: boolean,
  logger: Logger,
): Promise<void> {
  for (const server of serversOf(redis)) {
    const where = `${server.options.host ?? "?"}:${server.options.port ?? "?"}`;
    let policy: string | undefined;
    try {
      const reply = (await server.config("GET", "maxmemory-policy")) as string[];
      policy = reply[1];
    } catch (err) {
      // Managed Redis often disables CONFIG: say so rather than guess.
      logger.warn(
        { err: (err as Error).message, redis: where },
        "could not read Redis maxmemory-policy; make sure it is noeviction",
      );
      continue;
    }
    if (policy === undefined || policy === "noeviction") continue;
    const message = `Redis maxmemory-policy is ${policy} on ${where}: under memory pressure Redis may evict hook records and deliveries. Set it to noeviction.`;
    if (require) throw new EvictionPolicyError(`${message} (redis.require_noeviction is on)`);
    logger.warn({ maxmemory_policy: policy, redis: where }, message);
  }
}

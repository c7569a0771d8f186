// Records must never be evicted: a Redis whose maxmemory-policy may drop keys under memory pressure
// can lose acknowledged hooks silently. Checked once at boot: a loud warning, or a refusal to start
// with `redis.require_noeviction`.
import type { Redis } from "ioredis";
import type { Logger } from "../observability/logger.ts";

export class EvictionPolicyError extends Error {}

export async function checkEvictionPolicy(redis: Redis, require: boolean, logger: Logger): Promise<void> {
  let policy: string | undefined;
  try {
    const reply = (await redis.config("GET", "maxmemory-policy")) as string[];
    policy = reply[1];
  } catch (err) {
    // Managed Redis often disables CONFIG: say so rather than guess.
    logger.warn(
      { err: (err as Error).message },
      "could not read Redis maxmemory-policy; make sure it is noeviction",
    );
    return;
  }
  if (policy === undefined || policy === "noeviction") return;
  const message = `Redis maxmemory-policy is ${policy}: under memory pressure Redis may evict hook records and deliveries. Set it to noeviction.`;
  if (require) throw new EvictionPolicyError(`${message} (redis.require_noeviction is on)`);
  logger.warn({ maxmemory_policy: policy }, message);
}

// A short Redis lock around one maintenance tick. BullMQ already hands each tick job to one worker, but a
// tick that runs longer than the interval would let the next tick start on another process; the lock
// makes two ticks never run at once, cluster-wide.
import { randomUUID } from "node:crypto";
import type { RedisClient } from "../store/redis-client.ts";
import { LuaScript } from "../store/lua-script.ts";

const releaseLock = new LuaScript("release-lock-1.lua", 1);

/** A lock held by at most one caller at a time; it lapses after `ttlMs` if its holder dies. */
export class TickLock {
  constructor(
    private readonly redis: RedisClient,
    private readonly key: string,
    private readonly ttlMs: number,
  ) {}

  /**
   * Run `body` while holding the lock. Resolves `{ ran: false }` without running it when another holder has
   * the lock; the lock is released (only if still ours) however `body` ends.
   */
  async withLock<T>(body: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }> {
    const token = randomUUID();
    const acquired = await this.redis.set(this.key, token, "PX", this.ttlMs, "NX");
    if (acquired !== "OK") return { ran: false };
    try {
      return { ran: true, value: await body() };
    } finally {
      await releaseLock.run(this.redis, [this.key], [token]);
    }
  }
}

// The lock that lets one process at a time migrate a prefix's layout. It expires `ttlMs` after its
// last renewal, and its holder renews it every third of that while it runs, so a migration may take
// as long as it needs while a holder that crashed frees the lock within `ttlMs`.
import { randomUUID } from "node:crypto";
import { LuaScript } from "../lua-script.ts";
import type { RedisClient } from "../redis-client.ts";

const renewLock = new LuaScript("renew-lock-1.lua", 1);
const releaseLock = new LuaScript("release-lock-1.lua", 1);

export class MigrationLock {
  readonly token = randomUUID();
  private timer: NodeJS.Timeout | undefined;
  private lostBecause: string | undefined;

  private constructor(
    private readonly redis: RedisClient,
    readonly key: string,
    private readonly ttlMs: number,
  ) {}

  /** The lock, renewed until released, or undefined while another process holds it. */
  static async take(redis: RedisClient, key: string, ttlMs: number): Promise<MigrationLock | undefined> {
    const lock = new MigrationLock(redis, key, ttlMs);
    if ((await redis.set(key, lock.token, "PX", ttlMs, "NX")) !== "OK") return undefined;
    lock.timer = setInterval(() => void lock.renew(), Math.max(10, Math.floor(ttlMs / 3)));
    return lock;
  }

  /** Throws when a renewal found the lock gone or taken: the migration must stop writing. */
  assertHeld(): void {
    if (this.lostBecause !== undefined)
      throw new Error(`the migration lock ${this.key} was lost (${this.lostBecause})`);
  }

  async release(): Promise<void> {
    clearInterval(this.timer);
    await releaseLock.run(this.redis, [this.key], [this.token]);
  }

  private async renew(): Promise<void> {
    try {
      const renewed = await renewLock.run(this.redis, [this.key], [this.token, this.ttlMs]);
      if (renewed !== 1) {
        this.lostBecause = "it expired or another process took it";
        clearInterval(this.timer);
      }
    } catch {
      // One failed renewal (Redis briefly away) is not a loss yet: the lock has two thirds of its time
      // left, the next renewal tells, and the version only moves while the lock is held.
    }
  }
}

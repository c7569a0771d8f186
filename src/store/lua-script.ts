// Runs our Lua files by SHA and falls back to sending the source once when Redis has not cached it
// (first call, or after a restart or failover), so scripts cost one round trip on the hot path.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Redis } from "ioredis";

export class LuaScript {
  readonly sha: string;
  private readonly source: string;

  /** `file` names a script in src/store/lua/; `numKeys` "n" takes as many keys as each call passes. */
  constructor(
    file: string,
    private readonly numKeys: number | "n",
  ) {
    this.source = readFileSync(new URL(`./lua/${file}`, import.meta.url), "utf8");
    this.sha = createHash("sha1").update(this.source).digest("hex");
  }

  async run(
    redis: Redis,
    keys: readonly string[],
    args: readonly (string | number | Buffer)[],
  ): Promise<unknown> {
    if (this.numKeys !== "n" && keys.length !== this.numKeys)
      throw new Error(`script expects ${this.numKeys} keys, got ${keys.length}`);
    try {
      return await redis.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (err) {
      if (err instanceof Error && err.message.startsWith("NOSCRIPT")) {
        return redis.eval(this.source, keys.length, ...keys, ...args);
      }
      throw err;
    }
  }
}

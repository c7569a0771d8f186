// Runs our Lua files by SHA and falls back to sending the source once when Redis has not cached it
// (first call, or after a restart or failover), so scripts cost one round trip on the hot path. Every
// call must name keys of one hash tag: a script that touches two slots fails on a Redis Cluster, so it
// is refused here, on a single Redis too, where every test can see it. The one exception is a batch
// script whose caller groups its calls per slot on a cluster and sends one call on a single Redis.
// A script may splice in a shared piece of Lua (an include) with a line `-- @include <path under src/>`,
// as BullMQ's own commands do: the BullMQ adapter's job write lives in src/queue/bullmq/, not here.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { hashTagOf } from "./key-slot.ts";
import { type RedisClient, isCluster } from "./redis-client.ts";

type Arg = string | number | Buffer;

const INCLUDE = /^-- @include (\S+)[ \t]*$/gm;
const INCLUDE_PATH = /^[a-z0-9][\w-]*(\/[a-z0-9][\w-]*)*\.lua$/;

/**
 * `source` with every `-- @include <path>` line replaced by that file (a path under src/, e.g.
 * `queue/bullmq/add-standard-job.lua`), its own includes spliced in turn. Each file goes in once per
 * script; a missing file, a path outside src/ or an include cycle throws at load time.
 */
export function spliceIncludes(
  source: string,
  read: (path: string) => string = (path) => readFileSync(new URL(`../${path}`, import.meta.url), "utf8"),
  chain: readonly string[] = [],
  done: Set<string> = new Set(),
): string {
  return source.replace(INCLUDE, (_line, path: string) => {
    if (!INCLUDE_PATH.test(path)) throw new Error(`lua include "${path}": not a .lua path under src/`);
    if (chain.includes(path)) throw new Error(`lua include cycle: ${[...chain, path].join(" -> ")}`);
    if (done.has(path)) return `-- (${path} included above)`;
    done.add(path);
    return spliceIncludes(read(path), read, [...chain, path], done).trimEnd();
  });
}

export class LuaScript {
  readonly sha: string;
  private readonly source: string;

  /**
   * `file` names a script in src/store/lua/; `numKeys` "n" takes as many keys as each call passes.
   * `oneSlotOnClusterOnly`: calls may name several hash tags on a single Redis (the caller batches
   * across them there, and per slot on a cluster).
   */
  constructor(
    private readonly file: string,
    private readonly numKeys: number | "n",
    private readonly options: { readonly oneSlotOnClusterOnly?: boolean } = {},
  ) {
    this.source = spliceIncludes(readFileSync(new URL(`./lua/${file}`, import.meta.url), "utf8"));
    this.sha = createHash("sha1").update(this.source).digest("hex");
  }

  /** Run with string replies. */
  run(redis: RedisClient, keys: readonly string[], args: readonly Arg[]): Promise<unknown> {
    return this.call(redis, keys, args, (sha, src, n, all) =>
      sha !== undefined ? redis.evalsha(sha, n, ...all) : redis.eval(src, n, ...all),
    );
  }

  /** Run with Buffer replies (for scripts that return binary values such as a hook body). */
  runBuffer(redis: RedisClient, keys: readonly string[], args: readonly Arg[]): Promise<unknown> {
    return this.call(redis, keys, args, (sha, src, n, all) =>
      sha !== undefined
        ? redis.callBuffer("EVALSHA", [sha, n, ...all])
        : redis.callBuffer("EVAL", [src, n, ...all]),
    );
  }

  private async call(
    redis: RedisClient,
    keys: readonly string[],
    args: readonly Arg[],
    send: (sha: string | undefined, source: string, numKeys: number, all: Arg[]) => Promise<unknown>,
  ): Promise<unknown> {
    if (this.numKeys !== "n" && keys.length !== this.numKeys)
      throw new Error(`script expects ${this.numKeys} keys, got ${keys.length}`);
    if (!this.options.oneSlotOnClusterOnly || isCluster(redis)) this.checkOneTag(keys);
    const all = [...keys, ...args];
    try {
      return await send(this.sha, this.source, keys.length, all);
    } catch (err) {
      if (err instanceof Error && err.message.startsWith("NOSCRIPT")) {
        return send(undefined, this.source, keys.length, all);
      }
      throw err;
    }
  }

  private checkOneTag(keys: readonly string[]): void {
    const tag = keys[0] === undefined ? undefined : hashTagOf(keys[0]);
    const stray = keys.find((key) => hashTagOf(key) !== tag);
    if (stray !== undefined)
      throw new Error(
        `${this.file}: keys of two hash tags in one call (${keys[0]}, ${stray}): not one cluster slot`,
      );
  }
}

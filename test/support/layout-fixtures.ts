// What the layout tests share: a scratch prefix on the test Redis with its config written to a file
// (for the CLI and booted processes), the keys under it, and layout migrations made for a test only.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterEach } from "vitest";
import { Keys } from "../../src/store/keys.ts";
import type { LayoutMigration } from "../../src/store/layout/migration.ts";
import { REDIS_URL, deletePrefix } from "./test-gateway.ts";

export interface ScratchPrefix {
  readonly prefix: string;
  readonly keys: Keys;
  readonly redis: Redis;
  /** A config file naming this prefix, with a `demo` source to the log sink, on port `port`. */
  readonly configFile: string;
  /** Every key under the prefix, sorted. */
  stored(): Promise<string[]>;
  cleanup(): Promise<void>;
}

export function scratchPrefix(port = 0): ScratchPrefix {
  const prefix = `lay${randomBytes(5).toString("hex")}`;
  const dir = mkdtempSync(join(tmpdir(), "switchyard-layout-"));
  const configFile = join(dir, "switchyard.yaml");
  writeFileSync(
    configFile,
    [
      `redis: { url: "${REDIS_URL}", prefix: ${prefix} }`,
      `http: { port: ${port}, host: 127.0.0.1 }`,
      `admin: { tokens: ["layout-test-token-0123456789"] }`,
      "sinks: { audit: { type: log } }",
      "sources: { demo: { verify: { type: none }, dedup: body, sinks: [audit], allow_non_durable: true } }",
      "",
    ].join("\n"),
  );
  const redis = new Redis(REDIS_URL);
  return {
    prefix,
    keys: new Keys(prefix),
    redis,
    configFile,
    stored: async () => (await redis.keys(`{${prefix}[:}]*`)).sort(),
    cleanup: async () => {
      await deletePrefix(redis, prefix);
      redis.disconnect();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** What a test migration did: how often each step's body ran, and how many ran at once at most. */
export interface StepLog {
  readonly runs: Record<string, number>;
  maxConcurrent: number;
}

/**
 * A migration `from` → `from + 1` writing one key per step (`{<prefix>:0}:migrated:<step>`); `failOnce`
 * names a step that throws the first time it runs (a crash halfway), `stepMs` how long each step takes.
 */
export function testMigration(
  from: number,
  opts: { failOnce?: string; stepMs?: number; steps?: readonly string[] } = {},
): { migration: LayoutMigration; log: StepLog } {
  const steps = opts.steps ?? ["copy", "index", "cleanup"];
  const log: StepLog = { runs: {}, maxConcurrent: 0 };
  let running = 0;
  let failed = false;
  const migration: LayoutMigration = {
    from,
    to: from + 1,
    description: `test migration ${from} -> ${from + 1}`,
    plan: async ({ keys }) => steps.map((s) => `would write ${keys.bucketTag(0)}:migrated:${s}`),
    run: async (ctx) => {
      for (const name of steps) {
        await ctx.step(name, async () => {
          running++;
          log.maxConcurrent = Math.max(log.maxConcurrent, running);
          log.runs[name] = (log.runs[name] ?? 0) + 1;
          try {
            if (opts.stepMs) await new Promise((r) => setTimeout(r, opts.stepMs));
            if (name === opts.failOnce && !failed) {
              failed = true;
              throw new Error(`crashed in step ${name}`);
            }
            await ctx.redis.set(`${ctx.keys.bucketTag(0)}:migrated:${name}`, "1");
          } finally {
            running--;
          }
        });
      }
    },
  };
  return { migration, log };
}

/** A maker of scratch prefixes for one test file, each removed after the test that made it. */
export function scratchPrefixes(): () => ScratchPrefix {
  const made: ScratchPrefix[] = [];
  afterEach(async () => {
    for (const s of made.splice(0)) await s.cleanup();
  });
  return () => {
    const s = scratchPrefix();
    made.push(s);
    return s;
  };
}

// Shared bits of the benchmark scripts: child processes that print "ready <port>", key cleanup,
// signed headers, and formatting of side-by-side results (this machine is shared and noisy: ratios, not absolutes).
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { Redis } from "ioredis";

/** The Switchyard process of the benchmarks (switchyard-node.ts: `api` or `dispatch` <config json>). */
export const SWITCHYARD_NODE = fileURLToPath(new URL("./switchyard-node.ts", import.meta.url));

/** The bare BullMQ baseline worker's process (baseline-worker-process.ts <options json> [--on-start]). */
export const BASELINE_WORKER = fileURLToPath(new URL("./baseline-worker-process.ts", import.meta.url));

export interface Target {
  readonly port: number;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

/** Run `script` with tsx and wait for its "ready <port>" line. */
export async function startTarget(script: string, args: string[]): Promise<Target> {
  const child = spawn(
    process.execPath,
    [...(process.env.BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? []), "--import", "tsx", script, ...args],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on("line", (line) => {
      const m = /^ready (\d+)/.exec(line);
      if (m) resolve(Number(m[1]));
    });
    child.once("exit", (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return {
    port,
    child,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

export async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", `{${prefix}[:}]*`, "COUNT", 5000);
    cursor = next;
    if (keys.length > 0) await redis.unlink(...keys);
  } while (cursor !== "0");
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function table(rows: readonly Record<string, string | number>[]): string {
  const cols = Object.keys(rows[0] ?? {});
  const width = (c: string) => Math.max(c.length, ...rows.map((r) => String(r[c]).length));
  const line = (r: Record<string, string | number>) =>
    cols.map((c) => String(r[c]).padEnd(width(c))).join("  ");
  return [line(Object.fromEntries(cols.map((c) => [c, c]))), ...rows.map(line)].join("\n");
}

/** Standard Webhooks headers signing `body` as the message `id`, sent now. */
export function signedHeaders(
  webhook: { sign(id: string, at: Date, body: string): string },
  id: string,
  body: string,
): Record<string, string> {
  const now = new Date();
  return {
    "content-type": "application/json",
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
    "webhook-signature": webhook.sign(id, now, body),
  };
}

/** Ratio of the medians of `a` and `b`, and the per-round ratios (same round, so same noise) to show the spread. */
export function ratioText(a: readonly number[], b: readonly number[]): string {
  const rounds = a.map((v, i) => (100 * v) / (b[i] ?? NaN));
  return `${((100 * median(a)) / median(b)).toFixed(1)}% (per round ${rounds.map((v) => v.toFixed(0)).join("/")})`;
}

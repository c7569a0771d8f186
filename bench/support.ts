// Shared bits of the benchmark scripts: child processes that print "ready <port>", key cleanup,
// and formatting of side-by-side results (this machine is shared and noisy: ratios, not absolutes).
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import type { Redis } from "ioredis";
import type { Pool } from "undici";

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

/** What a bare baseline worker does per job: POST the body with undici, fail on a non-2xx. */
export async function postBody(pool: Pool, path: string, body: string): Promise<void> {
  const res = await pool.request({
    path,
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  await res.body.dump();
  if (res.statusCode < 200 || res.statusCode > 299) throw new Error(`HTTP ${res.statusCode}`);
}

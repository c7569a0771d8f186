// bench:boot — what the compiled build saves: process start → ready, and resident memory once up, of
// `npx tsx workers/<role>.ts` (the Procfile before the build) against `node dist/workers/<role>.js`, for
// the web and the worker role, runs interleaved so both see the same machine. Ready is /healthz
// answering 200 (web) or the "switchyard running" line (worker). RSS is summed over every process the
// command starts (npx, tsx and its esbuild service count: a platform bills the dyno, not one pid), with
// the gateway process's own RSS beside it.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startPrivateRedis } from "../../../src/runtime/dev-redis.ts";
import { ROOT, buildOnce } from "../../../test/support/built-dist.ts";
import { freePort } from "../../../test/support/procfile.ts";
import { median, table } from "../../shared/support.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const SETTLE_MS = 1000;

const variants = {
  tsx: (role: string) => `npx tsx workers/${role}.ts`,
  dist: (role: string) => `node dist/workers/${role}.js`,
} as const;
type Variant = keyof typeof variants;

interface Sample {
  readonly bootMs: number;
  readonly treeRssMb: number;
  readonly gatewayRssMb: number;
}

/** VmRSS of `pid` in MB, or 0 if it is gone. */
function rssMb(pid: number): number {
  try {
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb === undefined ? 0 : Number(kb) / 1024;
  } catch {
    return 0;
  }
}

/** Every process in process group `pgid`, with its command line. */
function group(pgid: number): { pid: number; cmd: string }[] {
  const found: { pid: number; cmd: string }[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      // Fields after the parenthesised command: state, ppid, pgrp, …
      const pgrp = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
      if (pgrp === pgid) {
        const cmd = readFileSync(`/proc/${name}/cmdline`, "utf8").replaceAll("\0", " ");
        found.push({ pid: Number(name), cmd });
      }
    } catch {
      // exited while we looked
    }
  }
  return found;
}

async function ready(child: ChildProcess, role: string, port: number): Promise<void> {
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${role} exited ${child.exitCode}`);
    if (role === "worker" ? out.includes('"msg":"switchyard running"') : await healthy(port)) return;
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function healthy(port: number): Promise<boolean> {
  try {
    return (await fetch(`http://127.0.0.1:${port}/healthz`)).status === 200;
  } catch {
    return false;
  }
}

async function measure(variant: Variant, role: string, env: Record<string, string>): Promise<Sample> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(`exec ${variants[variant](role)}`, {
    shell: true,
    cwd: ROOT,
    detached: true,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const closed = new Promise((r) => child.once("close", r));
  try {
    await ready(child, role, port);
    const bootMs = performance.now() - started;
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const rss = group(child.pid!).map((p) => ({ ...p, mb: rssMb(p.pid) }));
    // The gateway is the biggest process running the entry point (not npm, sh, tsx's CLI or esbuild).
    const gateway = rss.filter((p) => p.cmd.includes(`workers/${role}.`)).sort((a, b) => b.mb - a.mb)[0];
    return {
      bootMs,
      treeRssMb: rss.reduce((sum, p) => sum + p.mb, 0),
      gatewayRssMb: gateway?.mb ?? Number.NaN,
    };
  } finally {
    process.kill(-child.pid!, "SIGTERM");
    await closed;
  }
}

async function main(): Promise<void> {
  await buildOnce();
  const redis = await startPrivateRedis();
  const dir = mkdtempSync(join(tmpdir(), "sy-bench-boot-"));
  const file = join(dir, "switchyard.yaml");
  writeFileSync(
    file,
    [
      `redis: { prefix: b${randomBytes(4).toString("hex")} }`,
      `http: { host: 127.0.0.1 }`,
      `sinks: { out: { type: http, url: "http://127.0.0.1:9/in" } }`,
      `sources: { src: { verify: { type: none }, sinks: [out] } }`,
    ].join("\n"),
  );
  const env = { SWITCHYARD_CONFIG: file, REDIS_URL: redis.url, LOG_LEVEL: "info", SWITCHYARD_ROLES: "" };
  const samples = new Map<string, Sample[]>();
  try {
    for (let run = 0; run < RUNS; run++) {
      for (const role of ["web", "worker"]) {
        // Alternate which variant goes first, so neither always meets a warmer page cache.
        const order: Variant[] = run % 2 === 0 ? ["tsx", "dist"] : ["dist", "tsx"];
        for (const variant of order) {
          const key = `${role} ${variant}`;
          samples.set(key, [...(samples.get(key) ?? []), await measure(variant, role, env)]);
        }
      }
    }
  } finally {
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  }

  const med = (key: string, f: (s: Sample) => number): number => median((samples.get(key) ?? []).map(f));
  const rows = ["web", "worker"].flatMap((role) =>
    (["tsx", "dist"] as const).map((variant) => {
      const key = `${role} ${variant}`;
      const base = `${role} dist`;
      return {
        role,
        command: variants[variant](role),
        "boot ms (median)": med(key, (s) => s.bootMs).toFixed(0),
        "boot ×dist": (med(key, (s) => s.bootMs) / med(base, (s) => s.bootMs)).toFixed(2),
        "RSS MB, all processes": med(key, (s) => s.treeRssMb).toFixed(1),
        "RSS ×dist": (med(key, (s) => s.treeRssMb) / med(base, (s) => s.treeRssMb)).toFixed(2),
        "RSS MB, gateway process": med(key, (s) => s.gatewayRssMb).toFixed(1),
      };
    }),
  );
  console.log(
    `bench:boot: ${RUNS} runs per command, interleaved; ready = /healthz 200 (web), "running" (worker)`,
  );
  console.log(table(rows));
}

await main();

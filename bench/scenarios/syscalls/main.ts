// bench:syscalls — system calls per delivered hook, by process, Switchyard beside the bare baseline (and any
// --against checkout), at a fixed rate. Rates and CPU figures swing by a third from run to run on a shared
// machine; a count of system calls swings far less (epoll wakes the most), so it says whether a change
// adds or saves round trips (each is a write and a read on both ends, and an epoll wake). Each contender
// runs alone (fresh Redis, fresh processes) with `strace -c -f` attached to its web, its worker and its
// Redis for the timed phase only; strace slows what it traces, so only the counts are figures here.
//
// The processes log at warn unless --log-level says otherwise (info: what the delivery lines add).
//
//   npm run bench:syscalls -- [--rate 400] [--seconds 5] [--log-level warn] [--against DIR ...]
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startPrivateRedis } from "../../../src/runtime/dev-redis.ts";
import { buildIfNeeded } from "../../../test/support/procfile.ts";
import { SECRET, contenders } from "../../shared/e2e/contenders.ts";
import { fixedRate } from "../../shared/e2e/load.ts";
import { procfileCommands } from "../../shared/e2e/procs.ts";
import { startReceiver } from "../../shared/receiver-handle.ts";
import { table } from "../../shared/support.ts";

const { values: args } = parseArgs({
  options: {
    rate: { type: "string", default: "400" },
    seconds: { type: "string", default: "5" },
    against: { type: "string", multiple: true, default: [] },
    "log-level": { type: "string", default: "warn" },
  },
});
if (spawnSync("strace", ["-V"], { stdio: "ignore" }).status !== 0)
  throw new Error("bench:syscalls needs strace on the PATH (and the right to attach to its own children)");
const rate = Number(args.rate);
const seconds = Number(args.seconds);

/** Calls by system call name, from `strace -c` output. */
function parseSummary(text: string): Map<string, number> {
  const calls = new Map<string, number>();
  for (const line of text.split("\n")) {
    const cols = line.trim().split(/\s+/);
    // % time, seconds, usecs/call, calls, [errors], syscall
    if (cols.length < 5 || !/^\d/.test(cols[0] ?? "") || cols.at(-1) === "total") continue;
    const name = cols.at(-1)!;
    const n = Number(cols[3]);
    if (Number.isFinite(n)) calls.set(name, (calls.get(name) ?? 0) + n);
  }
  return calls;
}

interface Traced {
  readonly stop: () => Promise<Map<string, number>>;
}

function trace(pid: number, dir: string, label: string): Traced {
  const out = join(dir, `${label}.strace`);
  const child: ChildProcess = spawn("strace", ["-c", "-f", "-qq", "-o", out, "-p", String(pid)], {
    stdio: "ignore",
  });
  return {
    stop: async () => {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGINT");
      await exited;
      return parseSummary(readFileSync(out, "utf8"));
    },
  };
}

function redisPid(url: string): number {
  const port = new URL(url).port;
  return Number(
    execFileSync("pgrep", ["-f", `redis-server .*${port}`])
      .toString()
      .trim()
      .split("\n")[0],
  );
}

const procfile = procfileCommands();
await buildIfNeeded(["web", "worker"]);
const tmpDir = mkdtempSync(join(tmpdir(), "bench-syscalls-"));
const all = contenders({
  tmpDir,
  webCmd: procfile.web,
  workerCmd: procfile.worker,
  logLevel: args["log-level"],
  against: args.against,
});

/** Per contender and process: calls per delivered hook, by system call. */
const results = new Map<string, Record<string, Map<string, number>>>();
try {
  for (const contender of all) {
    const server = await startPrivateRedis();
    const receiver = await startReceiver({ timestamps: true });
    try {
      const run = await contender.start({ redisUrl: server.url, receiver, worker: true });
      const procs = { web: run.web.child.pid!, worker: run.worker!.child.pid!, redis: redisPid(server.url) };
      const traced = Object.entries(procs).map(
        ([role, pid]) => [role, trace(pid, tmpDir, `${contender.name}-${role}`)] as const,
      );
      await new Promise((r) => setTimeout(r, 500)); // strace attached
      const load = await fixedRate(run.url, SECRET, rate, seconds);
      const sent = load.sentAt.length - load.non2xx;
      await receiver.waitFor(sent, 60_000);
      await new Promise((r) => setTimeout(r, 200)); // the last outcomes recorded
      const perHook: Record<string, Map<string, number>> = {};
      for (const [role, t] of traced) {
        const calls = await t.stop();
        perHook[role] = new Map([...calls].map(([name, n]) => [name, n / sent]));
      }
      results.set(contender.name, perHook);
      await run.stop();
      process.stderr.write(`» ${contender.name}: ${sent} hooks at ${rate}/s traced\n`);
    } finally {
      await receiver.stop();
      await server.stop();
    }
  }
} finally {
  rmSync(tmpDir, { recursive: true, force: true });
}

const names = [...results.keys()];
const roles = ["web", "worker", "redis"] as const;
const sum = (m: Map<string, number> | undefined): number =>
  [...(m ?? new Map<string, number>()).values()].reduce((a, b) => a + b, 0);
console.log(
  `\nbench:syscalls  system calls per delivered hook at ${rate}/s for ${seconds} s (strace -c -f)\n`,
);
const rows: Record<string, string>[] = roles.map((role) => ({
  process: role,
  ...Object.fromEntries(names.map((n) => [n, sum(results.get(n)?.[role]).toFixed(1)])),
}));
rows.push({
  process: "all three",
  ...Object.fromEntries(
    names.map((n) => [n, roles.reduce((t, r) => t + sum(results.get(n)?.[r]), 0).toFixed(1)]),
  ),
});
console.log(table(rows));
for (const role of roles) {
  const syscalls = new Set(names.flatMap((n) => [...(results.get(n)?.[role]?.keys() ?? [])]));
  const byCall = [...syscalls]
    .map((call) => ({
      [`${role} call`]: call,
      ...Object.fromEntries(names.map((n) => [n, (results.get(n)?.[role]?.get(call) ?? 0).toFixed(2)])),
    }))
    .filter((row) => names.some((n) => Number(row[n]) >= 0.05))
    .sort((a, b) => Number(b[names[0]!]) - Number(a[names[0]!]));
  console.log(`\n${table(byCall)}`);
}
process.exit(0);

// bench:e2e — Switchyard end to end beside a bare BullMQ baseline, in one run on this machine: the
// Procfile's `web` ×1 and `worker` ×1 (or the commands given) against a private redis-server, signed 1 KiB
// Standard Webhooks hooks, one http sink to a local receiver; the baseline is a bare Hono route doing one
// Queue.add per request and a bare BullMQ Worker (concurrency 64) posting with undici to the same
// receiver. Every process is fresh and Redis empty for each measurement; the contenders' order rotates
// per round and each figure is the median over rounds.
//
//   npm run bench:e2e -- [--seconds 15] [--warmup 3] [--connections 30] [--rounds 1] [--rate N]
//     [--hooks 20000] [--only saturation,latency,memory,side] [--web-cmd CMD] [--worker-cmd CMD]
//     [--log-level warn] [--cpu-prof DIR] [--against DIR ...]
//
// --rate defaults to half of Switchyard's delivered/s at saturation in this run. `side` (not run by
// default) runs every contender at once at --rate, each with its own Redis and receiver, for a CPU and
// latency comparison that a busy machine disturbs alike. --cpu-prof writes
// CPU profiles (cpu-prof-preload.mjs) of every process at saturation under DIR and prints the hottest functions.
// --against DIR runs another checkout of Switchyard (its own Procfile, node_modules present) as one more
// contender, so a change is measured against the code before it in the same run.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Redis } from "ioredis";
import { startPrivateRedis } from "../src/runtime/dev-redis.ts";
import { summariseProfiles } from "./cpu-profile.ts";
import { contenders } from "./e2e-contenders.ts";
import {
  type FixedRateResult,
  type PhaseEnv,
  type SaturationResult,
  atFixedRate,
  memoryPerHook,
  saturation,
  sideBySide,
} from "./e2e-phases.ts";
import { buildIfNeeded } from "../test/support/procfile.ts";
import { procfileCommands } from "./e2e-procs.ts";
import { startReceiver } from "./e2e-receiver-handle.ts";
import { median, table } from "./support.ts";

const { values: args } = parseArgs({
  options: {
    seconds: { type: "string", default: "15" },
    warmup: { type: "string", default: "3" },
    connections: { type: "string", default: "30" },
    rounds: { type: "string", default: "1" },
    rate: { type: "string" },
    hooks: { type: "string", default: "20000" },
    only: { type: "string", default: "saturation,latency,memory" },
    "web-cmd": { type: "string" },
    "worker-cmd": { type: "string" },
    "log-level": { type: "string", default: "warn" },
    "cpu-prof": { type: "string" },
    against: { type: "string", multiple: true, default: [] },
  },
});
const seconds = Number(args.seconds);
const warmup = Math.min(Number(args.warmup), seconds / 3);
const connections = Number(args.connections);
const rounds = Number(args.rounds);
const only = new Set(args.only.split(","));
const procfile = procfileCommands();
// The Procfile runs compiled output: measure this tree's code, not a stale or missing dist/.
await buildIfNeeded(["web", "worker"]);
const webCmd = args["web-cmd"] ?? procfile.web;
const workerCmd = args["worker-cmd"] ?? procfile.worker;

const tmpDir = mkdtempSync(join(tmpdir(), "bench-e2e-"));
const stops: (() => Promise<void>)[] = [];
/** A private redis-server and a receiver. */
async function phaseEnv(): Promise<PhaseEnv> {
  const server = await startPrivateRedis();
  const redis = new Redis(server.url);
  const receiver = await startReceiver();
  stops.push(
    () => receiver.stop(),
    async () => redis.disconnect(),
    () => server.stop(),
  );
  return { redis, redisUrl: server.url, receiver };
}
const env = await phaseEnv();
const all = contenders({
  tmpDir,
  webCmd,
  workerCmd,
  logLevel: args["log-level"],
  against: args.against,
});
const names = all.map((c) => c.name);
const inOrder = (round: number): typeof all => all.map((_, i) => all[(i + round - 1) % all.length]!);
const results = <T>(): Map<string, T[]> => new Map(names.map((n) => [n, []]));
const sat = results<SaturationResult>();
const lat = results<FixedRateResult>();
const mem = results<number>();
const side = results<FixedRateResult>();
const log = (line: string): void => void process.stderr.write(`${line}\n`);

console.log(
  `bench:e2e  web: ${webCmd}  worker: ${workerCmd}  ${seconds} s, ${connections} connections, ` +
    `${rounds} round(s), log level ${args["log-level"]}`,
);
try {
  for (let round = 1; round <= rounds && only.has("saturation"); round++) {
    for (const c of inOrder(round)) {
      const profDir = args["cpu-prof"];
      const r = await saturation(env, c, {
        connections,
        seconds,
        warmup,
        ...(profDir ? { cpuProfDir: (role) => join(profDir, `${c.name}-${round}`, role) } : {}),
      });
      sat.get(c.name)!.push(r);
      log(`  round ${round} saturation ${c.name}: ${JSON.stringify(r)}`);
    }
  }
  const rate = args.rate
    ? Number(args.rate)
    : Math.round(median(sat.get("switchyard")!.map((r) => r.delivered)) / 2);
  for (let round = 1; round <= rounds && only.has("latency") && rate > 0; round++) {
    for (const c of inOrder(round)) {
      const r = await atFixedRate(env, c, { rate, seconds, warmup });
      lat.get(c.name)!.push(r);
      log(`  round ${round} fixed rate ${c.name}: ${JSON.stringify(r)}`);
    }
  }
  if (only.has("side") && rate > 0) {
    const envs = [env, ...(await Promise.all(all.slice(1).map(() => phaseEnv())))];
    for (let round = 1; round <= rounds; round++) {
      const r = await sideBySide(envs, all, { rate, seconds, warmup });
      r.forEach((x, i) => side.get(all[i]!.name)!.push(x));
      log(`  round ${round} side by side: ${JSON.stringify(r)}`);
    }
  }
  for (const c of only.has("memory") ? all : []) {
    const bytes = await memoryPerHook(env, c, { hooks: Number(args.hooks), connections });
    mem.get(c.name)!.push(bytes);
    log(`  memory ${c.name}: ${bytes.toFixed(0)} B/hook`);
  }

  const rows: Record<string, string>[] = [];
  const row = <T>(measure: string, from: Map<string, T[]>, pick: (r: T) => number, digits = 0): void => {
    const m = new Map(names.map((n) => [n, median(from.get(n)!.map(pick))]));
    if (Number.isNaN(m.get("switchyard"))) return;
    const cells = Object.fromEntries(
      names.map((n) => [n, Number.isNaN(m.get(n)) ? "–" : m.get(n)!.toFixed(digits)]),
    );
    const ratio = m.get("switchyard")! / m.get("baseline")!;
    rows.push({ measure, ...cells, "switchyard/baseline": Number.isFinite(ratio) ? ratio.toFixed(2) : "" });
  };
  row(`delivered/s at saturation (${connections} conn, ${seconds} s)`, sat, (r) => r.delivered);
  row("  accepted/s at saturation", sat, (r) => r.accepted);
  row("  web CPU µs per accepted hook", sat, (r) => r.webUs);
  row("  worker CPU µs per delivered hook", sat, (r) => r.workerUs);
  row("  Redis CPU µs per delivered hook", sat, (r) => r.redisUs);
  row(`send → arrival p50 ms at ${rate}/s`, lat, (r) => r.arrival50, 1);
  row(`send → arrival p99 ms at ${rate}/s`, lat, (r) => r.arrival99, 1);
  row(`202 p50 ms at ${rate}/s`, lat, (r) => r.ack50, 1);
  row(`202 p99 ms at ${rate}/s`, lat, (r) => r.ack99, 1);
  row(`Redis bytes per queued hook (web only, ${args.hooks})`, mem, (r) => r);
  row(`side by side at ${rate}/s: web CPU µs per hook`, side, (r) => r.webUs);
  row(`  worker CPU µs per hook`, side, (r) => r.workerUs);
  row(`  Redis CPU µs per hook`, side, (r) => r.redisUs);
  row(`  send → arrival p50 ms`, side, (r) => r.arrival50, 1);
  row(`  send → arrival p99 ms`, side, (r) => r.arrival99, 1);
  row(`  202 p50 ms`, side, (r) => r.ack50, 1);
  row(`  202 p99 ms`, side, (r) => r.ack99, 1);
  console.log(`\n${table(rows)}`);
  const lost = [...lat.values(), ...side.values()].flat().filter((r) => r.lost !== 0 || r.non2xx !== 0);
  if (lost.length > 0) console.log(`\nwarning: undelivered or refused hooks: ${JSON.stringify(lost)}`);
  if (args["cpu-prof"]) console.log(`\n${summariseProfiles(args["cpu-prof"])}`);
} finally {
  for (const stop of stops) await stop();
  rmSync(tmpDir, { recursive: true, force: true });
}
process.exit(0); // the load generators' sockets would keep the loop alive a while

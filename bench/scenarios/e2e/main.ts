// bench:e2e — Switchyard end to end beside a bare BullMQ baseline, in one run on this machine: the
// Procfile's `web` ×1 and `worker` ×1 (or the commands given) against a private redis-server, signed 1 KiB
// Standard Webhooks hooks, one http sink to a local receiver; the baseline is a bare Hono route doing one
// Queue.add per request and a bare BullMQ Worker (concurrency 64) posting with undici to the same
// receiver. With --sink amqp the sink is an amqp sink to RabbitMQ (AMQP_URL, guest@127.0.0.1:5672 by
// default; an exchange and a queue of the run's own, consumed by the receiver) and the baseline worker
// publishes each body on an amqplib confirm channel instead. Every process is fresh and Redis empty for each measurement; the contenders' order rotates
// per round and each figure is the median over rounds.
//
//   npm run bench:e2e -- [--seconds 15] [--warmup 3] [--connections 30] [--rounds 1] [--rate N]
//     [--hooks 20000] [--only saturation,latency,memory,side] [--web-cmd CMD] [--worker-cmd CMD]
//     [--log-level info] [--also-log-level warn] [--also-engine ledger] [--cpu-prof DIR] [--redis-stats] [--also-bare-removing] [--against DIR ...] [--sink http|amqp] [--quick]
//     [--json FILE]
//
// The processes log at the shipped level, info (a line per delivery), unless --log-level says otherwise;
// --also-log-level LEVEL runs this tree once more at LEVEL (`switchyard@LEVEL`), so the cost of the
// delivery lines is measured within one run. --also-engine ENGINE runs this tree once more with
// `dispatch.engine: ENGINE` (`switchyard[ENGINE]`), so the engines are compared within one run.
// --quick shrinks the run to a smoke test (3 s phases, 1 s warm-up, 2,000 hooks); --json FILE writes
// the medians (shared/result-types.ts) for `npm run bench`.
// --rate defaults to half of Switchyard's delivered/s at saturation in this run. `side` (not run by
// default) runs every contender at once at --rate, each with its own Redis and receiver, for a CPU and
// latency comparison that a busy machine disturbs alike. --cpu-prof writes
// CPU profiles (shared/e2e/cpu-prof-preload.mjs) of every process at saturation under DIR and prints the hottest functions.
// --also-bare-removing runs the bare pair once more with its jobs removed on completion (`bare-removing`),
// as Switchyard removes its own; the default bare pair keeps every completed job.
// --redis-stats prints, per contender and round, Redis's calls and µs per delivered hook by command.
// --against DIR runs another checkout of Switchyard (its own Procfile, node_modules present) as one more
// contender, so a change is measured against the code before it in the same run.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Redis } from "ioredis";
import { startPrivateRedis } from "../../../src/runtime/dev-redis.ts";
import { buildIfNeeded } from "../../../test/support/procfile.ts";
import { contenders } from "../../shared/e2e/contenders.ts";
import {
  type FixedRateResult,
  type PhaseEnv,
  type SaturationResult,
  atFixedRate,
  memoryPerHook,
  saturation,
  sideBySide,
} from "../../shared/e2e/phases.ts";
import { procfileCommands, stopAllProcs } from "../../shared/e2e/procs.ts";
import { commandStatRows } from "../../shared/e2e/redis-commandstats.ts";
import { progress, writeResult } from "../../shared/flags.ts";
import { startReceiver } from "../../shared/receiver-handle.ts";
import { type E2eResult, orNull } from "../../shared/result-types.ts";
import { median, table } from "../../shared/support.ts";
import { summariseProfiles } from "./cpu-profile.ts";

const { values: args } = parseArgs({
  options: {
    seconds: { type: "string" },
    warmup: { type: "string" },
    connections: { type: "string", default: "30" },
    rounds: { type: "string", default: "1" },
    rate: { type: "string" },
    hooks: { type: "string" },
    only: { type: "string", default: "saturation,latency,memory" },
    "web-cmd": { type: "string" },
    "worker-cmd": { type: "string" },
    "log-level": { type: "string", default: "info" },
    "also-log-level": { type: "string", multiple: true, default: [] },
    "also-engine": { type: "string", multiple: true, default: [] },
    "cpu-prof": { type: "string" },
    "redis-stats": { type: "boolean", default: false },
    "also-bare-removing": { type: "boolean", default: false },
    against: { type: "string", multiple: true, default: [] },
    sink: { type: "string", default: "http" },
    quick: { type: "boolean", default: false },
    json: { type: "string" },
  },
});
const quick = args.quick;
const seconds = Number(args.seconds ?? (quick ? 3 : 15));
const warmup = Math.min(Number(args.warmup ?? (quick ? 1 : 3)), seconds / 3);
const hooks = Number(args.hooks ?? (quick ? 2000 : 20000));
if (args.sink !== "http" && args.sink !== "amqp") throw new Error(`--sink http|amqp, not ${args.sink}`);
const sink = args.sink;
const amqpUrl = sink === "amqp" ? (process.env.AMQP_URL ?? "amqp://guest:guest@127.0.0.1:5672") : undefined;
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
  const receiver = await startReceiver({ timestamps: true, ...(amqpUrl ? { amqpUrl } : {}) });
  stops.push(
    () => receiver.stop(),
    async () => redis.disconnect(),
    () => server.stop(),
  );
  return { redis, redisUrl: server.url, receiver };
}
// Stopped by a signal (npm run bench stopped, Ctrl-C): the web and worker process groups, receivers and
// Redis servers go too, as the finally below would not run.
const onSignal = (): void =>
  void Promise.allSettled([stopAllProcs(), ...stops.map((stop) => stop())]).finally(() => {
    rmSync(tmpDir, { recursive: true, force: true });
    process.exit(130);
  });
process.once("SIGTERM", onSignal);
process.once("SIGINT", onSignal);
const env = await phaseEnv();
const all = contenders({
  tmpDir,
  webCmd,
  workerCmd,
  logLevel: args["log-level"],
  against: args.against,
  alsoAtLogLevels: args["also-log-level"],
  alsoEngines: args["also-engine"],
  bareRemoving: args["also-bare-removing"],
});
const names = all.map((c) => c.name);
const inOrder = (round: number): typeof all => all.map((_, i) => all[(i + round - 1) % all.length]!);
const results = <T>(): Map<string, T[]> => new Map(names.map((n) => [n, []]));
const sat = results<SaturationResult>();
const lat = results<FixedRateResult>();
const mem = results<number>();
const side = results<FixedRateResult>();
const log = (line: string): void => void process.stderr.write(`${line}\n`);
/** One round's figures as the result file holds them (JSON has no NaN: not measured is null). */
function nullable<T extends object>(r: T): Record<keyof T, number | null> {
  return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, orNull(Number(v))])) as Record<
    keyof T,
    number | null
  >;
}
/** Per figure, the median over rounds (null: not measured); null when the phase did not run. */
function medians<T extends object>(rs: readonly T[]): Record<keyof T, number | null> | null {
  const first = rs[0];
  if (first === undefined) return null;
  const keys = Object.keys(first) as (keyof T)[];
  const figure = (k: keyof T): number | null => orNull(median(rs.map((r) => Number(r[k]))));
  return Object.fromEntries(keys.map((k) => [k, figure(k)])) as Record<keyof T, number | null>;
}

console.log(
  `bench:e2e  ${sink} sink  web: ${webCmd}  worker: ${workerCmd}  ${seconds} s, ${connections} connections, ` +
    `${rounds} round(s), log level ${args["log-level"]}`,
);
try {
  for (let round = 1; round <= rounds && only.has("saturation"); round++) {
    for (const c of inOrder(round)) {
      progress(`round ${round}/${rounds}: saturation, ${c.name}, ${sink} sink, ${seconds} s`);
      const profDir = args["cpu-prof"];
      const r = await saturation(env, c, {
        connections,
        seconds,
        warmup,
        ...(profDir ? { cpuProfDir: (role) => join(profDir, `${c.name}-${round}`, role) } : {}),
        redisStats: args["redis-stats"],
      });
      const { commands, ...figures } = r;
      sat.get(c.name)!.push(figures);
      log(`  round ${round} saturation ${c.name}: ${JSON.stringify(figures)}`);
      if (commands)
        console.log(
          `Redis commands at saturation, ${c.name}, round ${round} (a script's time includes its commands'):\n` +
            table(commandStatRows(commands)),
        );
    }
  }
  const rate = args.rate
    ? Number(args.rate)
    : Math.round(median(sat.get("switchyard")!.map((r) => r.delivered)) / 2);
  for (let round = 1; round <= rounds && only.has("latency") && rate > 0; round++) {
    for (const c of inOrder(round)) {
      progress(`round ${round}/${rounds}: fixed rate ${rate}/s, ${c.name}, ${sink} sink, ${seconds} s`);
      const r = await atFixedRate(env, c, { rate, seconds, warmup });
      lat.get(c.name)!.push(r);
      log(`  round ${round} fixed rate ${c.name}: ${JSON.stringify(r)}`);
    }
  }
  if (only.has("side") && rate > 0) {
    const envs = [env, ...(await Promise.all(all.slice(1).map(() => phaseEnv())))];
    for (let round = 1; round <= rounds; round++) {
      progress(`round ${round}/${rounds}: side by side at ${rate}/s`);
      const r = await sideBySide(envs, all, { rate, seconds, warmup });
      r.forEach((x, i) => side.get(all[i]!.name)!.push(x));
      log(`  round ${round} side by side: ${JSON.stringify(r)}`);
    }
  }
  for (const c of only.has("memory") ? all : []) {
    progress(`memory: ${hooks} hooks into ${c.name}'s web`);
    const bytes = await memoryPerHook(env, c, { hooks, connections });
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
    const ratio = (other: string): string => {
      const r = m.get("switchyard")! / m.get(other)!;
      return Number.isFinite(r) ? r.toFixed(2) : "";
    };
    // Beside the baseline's ratio, one per other contender (a checkout before, this tree at another log level).
    const others = names.filter((n) => n !== "switchyard" && n !== "baseline");
    rows.push({
      measure,
      ...cells,
      "switchyard/baseline": ratio("baseline"),
      ...Object.fromEntries(others.map((n) => [`switchyard/${n}`, ratio(n)])),
    });
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
  row(`Redis bytes per queued hook (web only, ${hooks})`, mem, (r) => r);
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
  writeResult(args.json, {
    script: "e2e",
    quick,
    sink,
    seconds,
    warmup,
    connections,
    rounds,
    rate: only.has("latency") ? rate : null,
    contenders: Object.fromEntries(
      names.map((n) => [
        n,
        {
          saturation: medians(sat.get(n)!),
          latency: medians(lat.get(n)!),
          memory: orNull(median(mem.get(n)!)),
          rounds: { saturation: sat.get(n)!.map(nullable), latency: lat.get(n)!.map(nullable) },
        },
      ]),
    ),
  } satisfies E2eResult);
} finally {
  for (const stop of stops) await stop();
  rmSync(tmpDir, { recursive: true, force: true });
}
process.exit(0); // the load generators' sockets would keep the loop alive a while

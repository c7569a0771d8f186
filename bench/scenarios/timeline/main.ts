// bench:timeline — where a hook's time goes, stage by stage, at half of Switchyard's saturation rate (or
// --rate): the Procfile's web and worker run with SWITCHYARD_TIMELINE set (src/observability/timeline.ts),
// so each stamps the stages it sees per hook, and its own GC pauses and loop stalls; the load generator
// adds when it sent the hook and got its 202, and the receiver when the delivery arrived. Printed per
// run: per stage, the time since the previous stage and since the send (p50/p99 over the hooks sent
// after the warm-up); then where the slowest 1% of hooks (by send → arrival) waited, stage by stage
// beside every hook's median, and how much of their wait lay under a web or worker pause (breakdown.ts).
// --against DIR runs another checkout the same way (its own Procfile) at the same rate, alternating
// with this one per round, so a change's tail is compared in one run. The processes log at info, the
// shipped level, unless --log-level says otherwise.
//
//   npm run bench:timeline -- [--rate N] [--seconds 10] [--warmup 2] [--rounds 1] [--against DIR ...]
//     [--log-level info] [--web-cmd CMD] [--worker-cmd CMD]
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Redis } from "ioredis";
import { startPrivateRedis } from "../../../src/runtime/dev-redis.ts";
import { buildIfNeeded } from "../../../test/support/procfile.ts";
import { type Contender, SECRET, contenders } from "../../shared/e2e/contenders.ts";
import { fixedRate } from "../../shared/e2e/load.ts";
import { saturation } from "../../shared/e2e/phases.ts";
import { procfileCommands } from "../../shared/e2e/procs.ts";
import { startReceiver } from "../../shared/receiver-handle.ts";
import { median, table } from "../../shared/support.ts";
import { type Stamps, type Tail, readStamps, stageRows, stagesPresent, tailBreakdown } from "./breakdown.ts";

const { values: args } = parseArgs({
  options: {
    rate: { type: "string" },
    seconds: { type: "string", default: "10" },
    warmup: { type: "string", default: "2" },
    rounds: { type: "string", default: "1" },
    against: { type: "string", multiple: true, default: [] },
    "log-level": { type: "string", default: "info" },
    "web-cmd": { type: "string" },
    "worker-cmd": { type: "string" },
  },
});
const seconds = Number(args.seconds);
const warmup = Number(args.warmup);
const rounds = Number(args.rounds);
const procfile = procfileCommands();
// The Procfile runs compiled output: measure this tree's code, not a stale or missing dist/.
await buildIfNeeded(["web", "worker"]);
const tmpDir = mkdtempSync(join(tmpdir(), "bench-timeline-"));
const server = await startPrivateRedis();
const redis = new Redis(server.url);
const receiver = await startReceiver({ timestamps: true });
const env = { redis, redisUrl: server.url, receiver };
// The bare baseline stamps nothing: only Switchyard checkouts take part.
const runs = contenders({
  tmpDir,
  webCmd: args["web-cmd"] ?? procfile.web,
  workerCmd: args["worker-cmd"] ?? procfile.worker,
  logLevel: args["log-level"],
  against: args.against,
}).filter((c) => c.name !== "baseline");

/** One timeline of `c` at `rate`: its stage table and its tail, printed. */
async function timelineOf(c: Contender, rate: number, round: number): Promise<Tail | undefined> {
  await redis.flushall();
  await receiver.reset();
  const dir = join(tmpDir, `${c.name}-${round}`);
  mkdirSync(dir);
  const run = await c.start({ ...env, worker: true, env: { SWITCHYARD_TIMELINE: join(dir, "stages") } });
  const load = await fixedRate(run.url, SECRET, rate, seconds, { keepIds: true });
  await receiver.waitFor(load.ids.filter(Boolean).length, 30_000).catch(() => undefined);
  await run.stop(); // each process writes its last stamps on exit

  const hooks = new Map<string, Stamps>();
  const from = load.sentAt[0]! + warmup * 1000;
  load.ids.forEach((id, i) => {
    if (id && load.sentAt[i]! >= from)
      hooks.set(id, { sent: load.sentAt[i]!, "202": load.sentAt[i]! + load.latency[i]! });
  });
  for (const [id, at] of await receiver.arrivals()) {
    const h = hooks.get(id);
    if (h) h.arrived = at;
  }
  const processes = readStamps(dir, hooks);
  const stages = stagesPresent([...hooks.values()]);
  const complete = [...hooks.values()].filter((h) => stages.every((s) => h[s] !== undefined));
  console.log(
    `\n${c.name}, round ${round}: ${rate}/s for ${seconds} s, ${complete.length} of ${hooks.size} hooks with every stage\n`,
  );
  if (complete.length === 0) return undefined;
  console.log(table(stageRows(complete, stages)));
  const tail = tailBreakdown(complete, stages, processes);
  console.log(
    `\nwhere the slowest 1% waited (${tail.slow} hooks, send → arrival ≥ ${tail.thresholdMs.toFixed(1)} ms):\n`,
  );
  console.log(table(tail.rows));
  return tail;
}

try {
  let rate = Number(args.rate);
  if (!(rate > 0)) {
    const max = await saturation(env, runs[0]!, { connections: 30, seconds, warmup });
    rate = Math.round(max.delivered / 2);
    console.log(`saturation: ${Math.round(max.delivered)} delivered/s; timeline at ${rate}/s`);
  }
  const tails = new Map<string, Tail[]>(runs.map((c) => [c.name, []]));
  for (let round = 1; round <= rounds; round++) {
    const order = runs.map((_, i) => runs[(i + round - 1) % runs.length]!);
    for (const c of order) {
      const tail = await timelineOf(c, rate, round);
      if (tail) tails.get(c.name)!.push(tail);
    }
  }
  if (runs.length > 1 || rounds > 1) {
    // Each row: the slowest 1%'s mean ms, median over rounds, per checkout.
    const labels = [...(tails.get(runs[0]!.name)![0]?.slowMean.keys() ?? [])];
    const summary = [
      {
        "slowest 1%: mean ms (median of rounds)": "p99 send → arrival",
        ...Object.fromEntries(
          runs.map((c) => [c.name, median(tails.get(c.name)!.map((t) => t.thresholdMs)).toFixed(1)]),
        ),
      },
      ...labels.map((label) => ({
        "slowest 1%: mean ms (median of rounds)": label,
        ...Object.fromEntries(
          runs.map((c) => {
            const m = median(tails.get(c.name)!.flatMap((t) => t.slowMean.get(label) ?? []));
            return [c.name, Number.isNaN(m) ? "–" : m.toFixed(2)];
          }),
        ),
      })),
    ];
    console.log(`\nsummary, ${rounds} round(s) at ${rate}/s:\n\n${table(summary)}`);
  }
} finally {
  await receiver.stop();
  redis.disconnect();
  await server.stop();
  rmSync(tmpDir, { recursive: true, force: true });
}
process.exit(0); // the load generator's sockets would keep the loop alive a while

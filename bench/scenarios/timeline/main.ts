// bench:timeline — where one hook's time goes, stage by stage, at half of Switchyard's saturation rate (or
// --rate): the Procfile's web and worker run with SWITCHYARD_TIMELINE set (src/observability/timeline.ts),
// so each stamps the stages it sees per hook; the load generator adds when it sent the hook and got its
// 202, and the receiver when the delivery arrived. Printed: per stage, the time since the previous stage
// and since the send (p50/p99 over the hooks sent after the warm-up), and one median hook in full.
//
//   npm run bench:timeline -- [--rate N] [--seconds 10] [--warmup 2] [--web-cmd CMD] [--worker-cmd CMD]
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Redis } from "ioredis";
import { startPrivateRedis } from "../../../src/runtime/dev-redis.ts";
import { buildIfNeeded } from "../../../test/support/procfile.ts";
import { SECRET, contenders } from "../../shared/e2e/contenders.ts";
import { fixedRate, percentile } from "../../shared/e2e/load.ts";
import { saturation } from "../../shared/e2e/phases.ts";
import { procfileCommands } from "../../shared/e2e/procs.ts";
import { startReceiver } from "../../shared/receiver-handle.ts";
import { table } from "../../shared/support.ts";

/** The stages in the order a hook passes them. */
const STAGES = [
  "sent",
  "received",
  "verified",
  "persisted",
  "job_added",
  "202",
  "picked_up",
  "sending",
  "arrived",
  "answered",
  "recorded",
] as const;

const { values: args } = parseArgs({
  options: {
    rate: { type: "string" },
    seconds: { type: "string", default: "10" },
    warmup: { type: "string", default: "2" },
    "web-cmd": { type: "string" },
    "worker-cmd": { type: "string" },
  },
});
const seconds = Number(args.seconds);
const warmup = Number(args.warmup);
const procfile = procfileCommands();
// The Procfile runs compiled output: measure this tree's code, not a stale or missing dist/.
await buildIfNeeded(["web", "worker"]);
const tmpDir = mkdtempSync(join(tmpdir(), "bench-timeline-"));
const server = await startPrivateRedis();
const redis = new Redis(server.url);
const receiver = await startReceiver({ timestamps: true });
const env = { redis, redisUrl: server.url, receiver };
const [sy] = contenders({
  tmpDir,
  webCmd: args["web-cmd"] ?? procfile.web,
  workerCmd: args["worker-cmd"] ?? procfile.worker,
  logLevel: "warn",
});

try {
  let rate = Number(args.rate);
  if (!(rate > 0)) {
    const max = await saturation(env, sy!, { connections: 30, seconds, warmup });
    rate = Math.round(max.delivered / 2);
    console.log(`saturation: ${Math.round(max.delivered)} delivered/s; timeline at ${rate}/s`);
  }
  await redis.flushall();
  const run = await sy!.start({
    ...env,
    worker: true,
    env: { SWITCHYARD_TIMELINE: join(tmpDir, "stages") },
  });
  const load = await fixedRate(run.url, SECRET, rate, seconds, { keepIds: true });
  await receiver.waitFor(load.ids.filter(Boolean).length, 30_000).catch(() => undefined);
  await run.stop(); // each process writes its last stamps on exit

  const hooks = new Map<string, Partial<Record<(typeof STAGES)[number], number>>>();
  const from = load.sentAt[0]! + warmup * 1000;
  load.ids.forEach((id, i) => {
    if (id && load.sentAt[i]! >= from)
      hooks.set(id, { sent: load.sentAt[i]!, "202": load.sentAt[i]! + load.latency[i]! });
  });
  for (const [id, at] of await receiver.arrivals()) {
    const h = hooks.get(id);
    if (h) h.arrived = at;
  }
  for (const file of readdirSync(tmpDir).filter((f) => f.startsWith("stages."))) {
    for (const line of readFileSync(join(tmpDir, file), "utf8").split("\n")) {
      const [id, stage, at] = line.split(" ");
      const h = id ? hooks.get(id) : undefined;
      if (h && stage) h[stage as (typeof STAGES)[number]] = Number(at);
    }
  }
  const complete = [...hooks.values()].filter((h) => STAGES.every((s) => h[s] !== undefined));
  const rows = STAGES.slice(1).map((stage, i) => {
    const prev = STAGES[i]!;
    const gap = complete.map((h) => h[stage]! - h[prev]!);
    const since = complete.map((h) => h[stage]! - h.sent!);
    return {
      stage: `${prev} → ${stage}`,
      "p50 ms": percentile(gap, 50).toFixed(2),
      "p99 ms": percentile(gap, 99).toFixed(2),
      "since sent p50": percentile(since, 50).toFixed(2),
      "since sent p99": percentile(since, 99).toFixed(2),
    };
  });
  console.log(
    `\nbench:timeline  ${rate}/s for ${seconds} s: ${complete.length} of ${hooks.size} hooks with every stage\n`,
  );
  console.log(table(rows));
  const byTotal = complete.sort((a, b) => a.recorded! - a.sent! - (b.recorded! - b.sent!));
  const mid = byTotal[Math.floor(byTotal.length / 2)];
  if (mid)
    console.log(
      `\nmedian hook: ${STAGES.map((s) => `${s} +${(mid[s]! - mid.sent!).toFixed(2)}`).join("  ")}`,
    );
} finally {
  await receiver.stop();
  redis.disconnect();
  await server.stop();
  rmSync(tmpDir, { recursive: true, force: true });
}
process.exit(0); // the load generator's sockets would keep the loop alive a while

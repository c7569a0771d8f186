// bench:scale — ingest and end-to-end throughput, and the Redis CPU a hook costs, on one Redis against a
// 3-master Redis Cluster (both started here from redis-server processes, the cluster with 3 replicas),
// with 1, 2 and 4 worker processes, side by side in one run. Each contender is one api-role process and
// W dispatch-role processes (bench/shared/switchyard-node.ts) of one deployment delivering to one HTTP
// sink at a local receiver (4 queue partitions where the code partitions by config, so only the backend
// differs). Ingest: accepted hooks/s while the workers run; end to end: N hooks from the first POST to
// the N-th arrival; Redis µs/hook: CPU (user + sys) summed over the masters from the first POST to the
// N-th arrival, over N; cmds/hook and cmd µs/hook: the commands the masters ran over that span (INFO
// commandstats, commands run by scripts included), over N; idle Redis µs/s: the same sum while the started workers wait with nothing to do,
// over BENCH_IDLE_S; net µs/hook: Redis µs/hook less the idle rate over the time the hooks took (what
// the masters spend with no traffic: the cluster bus, replica pings, idle workers' polls). The single Redis is private to the run (unless REDIS_URL is set), so other users of
// a shared Redis do not count. Rounds rotate the order of the contenders; figures are medians over
// rounds, ratios against one Redis with the same code and workers.
//
// `--against <dir>` (repeatable) runs the same contenders from another checkout too (its
// bench/shared/switchyard-node.ts, with this run's node_modules resolution; give it node_modules), so a
// change's before and after come from one run on one machine.
//
// Every process (API, workers, receiver, load generator, Redis nodes) shares this machine's cores: with
// fewer cores than processes, more workers or more Redis masters add overhead, not speed. The table
// shows the cost of spreading, not the gain a machine per process would see.
//
// Each round also sends the hot path's commands plain on both backends (command-floor.ts): the cluster
// ratio Redis itself charges for the same commands and round trips, beside Switchyard's.
//
// BENCH_DETAIL=1 adds, per contender, the commands per hook by name and the bytes fed to replicas: on
// a cluster the group commits split by bucket, which shows as more `evalsha` calls per hook.
//
// --json FILE writes the medians of this checkout's contenders (`npm run bench` runs it with 1 worker
// process and 3 rounds); --quick (BENCH_N 300, 1 round, 1 worker, 1 s idle) is a smoke test.
//
// Knobs: BENCH_N (hooks per contender, 3000), BENCH_ROUNDS (2), BENCH_WORKERS (1,2,4), BENCH_PARTITIONS
// (4), BENCH_IDLE_S (5), BENCH_BACKENDS (one,cluster), BENCH_CLUSTER_NODES (seed URLs of an existing
// cluster, comma-separated; unset: one is started), REDIS_URL (unset: a private redis-server).
import { availableParallelism } from "node:os";
import { basename, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { Cluster, Redis } from "ioredis";
import type { RedisClient } from "../../../src/store/redis-client.ts";
import { type TestCluster, startTestCluster } from "../../../test/support/redis-cluster.ts";
import { deletePrefix, testRedis } from "../../../test/support/test-gateway.ts";
import { configSchema } from "../../../src/config/schema.ts";
import { startPrivateRedis } from "../../../src/runtime/dev-redis.ts";
import { sendStart } from "../../shared/control.ts";
import { benchFlags, knob, writeResult } from "../../shared/flags.ts";
import { ingest } from "../../shared/exact-load.ts";
import { startReceiver } from "../../shared/receiver-handle.ts";
import { mastersUse, spent, sum } from "../../shared/redis-masters-cpu.ts";
import {
  type Backend,
  type FloorFigures,
  commandFloor,
  floorResult,
  floorRow,
  floorSummary,
} from "./command-floor.ts";
import { type ScaleResult, orNull } from "../../shared/result-types.ts";
import { SWITCHYARD_NODE, median, startTarget, table, type Target } from "../../shared/support.ts";

const { values: cli } = parseArgs({
  options: {
    against: { type: "string", multiple: true },
    json: { type: "string" },
    quick: { type: "boolean", default: false },
  },
});
const flags = benchFlags();
const N = knob("BENCH_N", flags.quick, 300, 3000);
const ROUNDS = knob("BENCH_ROUNDS", flags.quick, 1, 2);
const WORKERS = (process.env.BENCH_WORKERS ?? (flags.quick ? "1" : "1,2,4")).split(",").map(Number);
const PARTITIONS = Number(process.env.BENCH_PARTITIONS ?? 4);
const IDLE_MS = knob("BENCH_IDLE_S", flags.quick, 1, 5) * 1000;
const BACKENDS = (process.env.BENCH_BACKENDS ?? "one,cluster").split(",");
const TIMEOUT_MS = Math.max(60_000, N * 40);
const body = Buffer.from(JSON.stringify({ type: "invoice.paid", data: { pad: "" } }));
const BODY = JSON.stringify({ type: "invoice.paid", data: { pad: "x".repeat(1024 - body.length) } });

/** A checkout whose Switchyard runs: this one, or one given with --against. */
interface Code {
  readonly label: string;
  readonly node: string;
}
interface Contender {
  readonly code: Code;
  readonly backend: Backend;
  readonly workers: number;
}
interface Figures {
  readonly ingest: number;
  readonly e2e: number;
  /** Redis CPU µs per hook, summed over masters, and each master's share. */
  readonly redisUs: number;
  readonly perMasterUs: readonly number[];
  /** Redis CPU µs per second, summed over masters, while the started workers had nothing to do. */
  readonly idleUsPerS: number;
  /** `redisUs` less what the masters spent idle over the same time (cluster bus, replication pings, polls). */
  readonly netUs: number;
  /** Commands the masters ran per hook (scripts' commands included), and the µs spent in them. */
  readonly calls: number;
  readonly cmdUs: number;
  /** Per hook: bytes fed to replicas, and calls by command (`evalsha`: script calls). */
  readonly replBytes: number;
  readonly byCommand: ReadonlyMap<string, number>;
}

const codes: Code[] = [
  { label: "this", node: SWITCHYARD_NODE },
  ...(cli.against ?? []).map((dir) => ({
    label: basename(resolve(dir)),
    node: join(resolve(dir), "bench/shared/switchyard-node.ts"),
  })),
];

const single = process.env.REDIS_URL
  ? undefined
  : BACKENDS.includes("one")
    ? await startPrivateRedis({ dieWithParent: true })
    : undefined;
const REDIS_URL = process.env.REDIS_URL ?? single?.url ?? "redis://127.0.0.1:6379";
let cluster: TestCluster | undefined;
const seeds = process.env.BENCH_CLUSTER_NODES?.split(",").filter(Boolean);
if (!seeds && BACKENDS.includes("cluster")) {
  process.stderr.write("starting a Redis Cluster (3 masters, 3 replicas)…\n");
  cluster = await startTestCluster();
}
const clusterNodes = seeds ?? cluster?.seeds ?? [];
const receiver = await startReceiver();

/** One client per backend for reading its masters' CPU. */
const monitors = new Map<Backend, Redis | Cluster>();
if (BACKENDS.includes("one")) monitors.set("one Redis", new Redis(REDIS_URL));
if (BACKENDS.includes("cluster")) {
  const client = new Cluster(
    clusterNodes.map((url) => ({ host: new URL(url).hostname, port: Number(new URL(url).port) })),
  );
  await client.ping();
  monitors.set("3-master cluster", client);
}

function configOf(backend: Backend, prefix: string): Record<string, unknown> {
  return {
    redis:
      backend === "one Redis" ? { url: REDIS_URL, prefix } : { prefix, cluster: { nodes: clusterNodes } },
    http: { port: 0, host: "127.0.0.1" },
    dispatch: { concurrency: 64 },
    sinks: { out: { type: "http", url: `${receiver.url}/in`, partitions: PARTITIONS } },
    sources: { bench: { verify: { type: "none" }, dedup: { header: "x-bench-id" }, sinks: ["out"] } },
  };
}

/** Calls by command summed over masters, per hook. */
function perHook(maps: readonly ReadonlyMap<string, number>[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of maps) for (const [name, calls] of m) out.set(name, (out.get(name) ?? 0) + calls / N);
  return out;
}

/** One contender once: start its processes, idle, ingest N hooks, wait for the N-th delivery, clean up. */
async function run(c: Contender, round: number, index: number): Promise<Figures> {
  const prefix = `bscale${round}${index}${c.backend === "one Redis" ? "s" : "c"}${c.workers}x${process.pid}`;
  const json = JSON.stringify(configOf(c.backend, prefix));
  const monitor = monitors.get(c.backend)!;
  const children: Target[] = [];
  try {
    const api = await startTarget(c.code.node, ["api", json]);
    children.push(api);
    const workers = await Promise.all(
      Array.from({ length: c.workers }, () => startTarget(c.code.node, ["dispatch", json])),
    );
    children.push(...workers);
    await Promise.all(workers.map((w) => sendStart(w.port)));
    // Let the workers settle into waiting before the idle window opens.
    await new Promise((r) => setTimeout(r, 500));
    const idle0 = await mastersUse(monitor);
    await new Promise((r) => setTimeout(r, IDLE_MS));
    const idleUs = sum(spent(idle0, await mastersUse(monitor)).map((u) => u.cpuUs));
    const before = await receiver.count();
    const use0 = await mastersUse(monitor);
    const startedAt = Date.now();
    const [load, lastAt] = await Promise.all([
      ingest(api.port, N, BODY),
      receiver.waitFor(before + N, TIMEOUT_MS),
    ]);
    const used = spent(use0, await mastersUse(monitor));
    const perMaster = used.map((u) => u.cpuUs / N);
    const idleUsPerS = IDLE_MS > 0 ? (idleUs * 1000) / IDLE_MS : 0;
    const busyMs = Date.now() - startedAt;
    if (load.non2xx > 0)
      process.stderr.write(`${c.backend}, ${c.workers} workers: ${load.non2xx} not accepted\n`);
    return {
      ingest: load.rate,
      e2e: (N * 1000) / (lastAt - startedAt),
      redisUs: sum(perMaster),
      perMasterUs: perMaster,
      idleUsPerS,
      netUs: sum(perMaster) - (idleUsPerS * busyMs) / 1000 / N,
      calls: sum(used.map((u) => u.calls)) / N,
      cmdUs: sum(used.map((u) => u.cmdUs)) / N,
      replBytes: sum(used.map((u) => u.replBytes)) / N,
      byCommand: perHook(used.map((u) => u.byCommand)),
    };
  } finally {
    await Promise.all(children.map((t) => t.stop()));
    const redis: RedisClient = testRedis(configSchema().parse(configOf(c.backend, prefix)));
    await deletePrefix(redis, prefix).catch(() => undefined);
    redis.disconnect();
  }
}

// The codes alternate (this, against, this, …), so a slow spell of the shared machine hits both.
const contenders: Contender[] = (["one Redis", "3-master cluster"] as const)
  .filter((backend) => BACKENDS.includes(backend === "one Redis" ? "one" : "cluster"))
  .flatMap((backend) => WORKERS.flatMap((workers) => codes.map((code) => ({ code, backend, workers }))));
const key = (c: Contender): string => `${c.code.label}|${c.backend}|${c.workers}`;
const results = new Map<string, Figures[]>(contenders.map((c) => [key(c), []]));
const rows: Record<string, string | number>[] = [];
const floors = new Map<Backend, FloorFigures[]>([...monitors.keys()].map((b) => [b, []]));
for (let round = 1; round <= ROUNDS; round++) {
  // Rotate the order each round so a slow spell of the machine does not always hit the same contender.
  const order = contenders.map((_, i) => contenders[(i + round - 1) % contenders.length]!);
  for (const [index, c] of order.entries()) {
    process.stderr.write(`round ${round}: ${c.code.label}, ${c.backend}, ${c.workers} worker process(es)…\n`);
    const f = await run(c, round, index);
    results.get(key(c))!.push(f);
    rows.push({
      round,
      code: c.code.label,
      backend: c.backend,
      workers: c.workers,
      "ingest/s": Math.round(f.ingest),
      "e2e/s": Math.round(f.e2e),
      "Redis µs/hook": Math.round(f.redisUs),
      "per master": f.perMasterUs.map((us) => Math.round(us)).join("+"),
      "idle µs/s": Math.round(f.idleUsPerS),
      "net µs/hook": Math.round(f.netUs),
      "cmds/hook": f.calls.toFixed(1),
      "cmd µs/hook": Math.round(f.cmdUs),
    });
  }
  // Redis's own price of the cluster, beside Switchyard's: the hot path's commands sent plain.
  for (const [backend, redis] of monitors) {
    const prefix = `bfloor${round}${backend === "one Redis" ? "s" : "c"}x${process.pid}`;
    const f = await commandFloor(redis, prefix, N, Math.min(IDLE_MS, 2000), BODY);
    await deletePrefix(redis, prefix);
    floors.get(backend)!.push(f);
    rows.push(floorRow(round, backend, f));
  }
}

const medianOf = (c: Contender, pick: (f: Figures) => number): number =>
  median(results.get(key(c))!.map(pick));
const summary = contenders.map((c) => {
  const one = contenders.find(
    (o) => o.code === c.code && o.workers === c.workers && o.backend === "one Redis",
  );
  const ratio = (pick: (f: Figures) => number): string =>
    one ? (medianOf(c, pick) / medianOf(one, pick)).toFixed(2) : "-";
  return {
    code: c.code.label,
    backend: c.backend,
    workers: c.workers,
    "ingest/s": Math.round(medianOf(c, (f) => f.ingest)),
    "e2e/s": Math.round(medianOf(c, (f) => f.e2e)),
    "e2e ÷ one": ratio((f) => f.e2e),
    "Redis µs/hook": Math.round(medianOf(c, (f) => f.redisUs)),
    "CPU ÷ one": ratio((f) => f.redisUs),
    "idle µs/s": Math.round(medianOf(c, (f) => f.idleUsPerS)),
    "net µs/hook": Math.round(medianOf(c, (f) => f.netUs)),
    "net ÷ one": ratio((f) => f.netUs),
    "cmds/hook": medianOf(c, (f) => f.calls).toFixed(1),
    "cmd µs/hook": Math.round(medianOf(c, (f) => f.cmdUs)),
    "cmd ÷ one": ratio((f) => f.cmdUs),
  };
});
console.log(table(rows));
console.log(
  `\nmedians over ${ROUNDS} round(s), ${N} unsigned 1 KiB hooks each; ratios against one Redis, same code and workers:\n`,
);
console.log(table(summary));
if (floors.size === 2) console.log(`\n${floorSummary(floors)}`);
if (process.env.BENCH_DETAIL === "1") {
  // Where the calls go, per contender (medians over rounds): the commands that differ between backends.
  const names = [
    ...new Set([...results.values()].flatMap((fs) => fs.flatMap((f) => [...f.byCommand.keys()]))),
  ];
  const detail = contenders.map((c) => {
    const row: Record<string, string | number> = {
      contender: `${c.code.label}, ${c.backend}, ${c.workers}`,
      "repl B/hook": Math.round(medianOf(c, (f) => f.replBytes)),
    };
    for (const name of names) {
      const calls = medianOf(c, (f) => f.byCommand.get(name) ?? 0);
      if (calls >= 0.05) row[name] = calls.toFixed(2);
    }
    return row;
  });
  console.log(`\nBENCH_DETAIL: commands per hook, summed over masters (scripts' commands included):\n`);
  for (const row of detail) console.log(JSON.stringify(row));
}
console.log(
  `\n${availableParallelism()} cores for 1 API process, up to ${Math.max(...WORKERS)} workers, the receiver, the load ` +
    `generator and ${cluster ? "6 Redis Cluster nodes plus the single Redis" : "the Redis servers"}: ` +
    "more processes and more masters here measure the overhead of spreading, not a speedup. Redis CPU is " +
    "summed over masters; the cluster's masters also feed their replicas, which one Redis does not.",
);

const scripts = (f: Figures): number => (f.byCommand.get("evalsha") ?? 0) + (f.byCommand.get("eval") ?? 0);
writeResult(flags.json, {
  script: "scale",
  quick: flags.quick,
  hooks: N,
  rounds: ROUNDS,
  partitions: PARTITIONS,
  contenders: contenders
    .filter((c) => c.code.label === "this")
    .map((c) => ({
      backend: c.backend === "one Redis" ? "one" : "cluster",
      workers: c.workers,
      ingest: orNull(medianOf(c, (f) => f.ingest)),
      e2e: orNull(medianOf(c, (f) => f.e2e)),
      redisUs: orNull(medianOf(c, (f) => f.redisUs)),
      netUs: orNull(medianOf(c, (f) => f.netUs)),
      idleUsPerS: orNull(medianOf(c, (f) => f.idleUsPerS)),
      calls: orNull(medianOf(c, (f) => f.calls)),
      scriptCalls: orNull(medianOf(c, scripts)),
      rounds: (results.get(key(c)) ?? []).map((f) => ({ redisUs: orNull(f.redisUs), e2e: orNull(f.e2e) })),
    })),
  floor: floorResult(floors),
} satisfies ScaleResult);

for (const m of monitors.values()) m.disconnect();
await receiver.stop();
await cluster?.stop();
await single?.stop();

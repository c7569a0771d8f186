// bench:scale — ingest and end-to-end throughput on one Redis against a 3-master Redis Cluster (started
// here from redis-server processes, with 3 replicas), with 1, 2 and 4 worker processes, side by side in
// one run. Each contender is one api-role process and W dispatch-role processes (bench/shared/switchyard-node.ts)
// of one deployment delivering to one HTTP sink (4 queue partitions on both backends, so only the
// backend differs) at a local receiver. Ingest: accepted hooks/s while the workers run; end to end: N
// hooks from the first POST to the N-th arrival. Rounds rotate the order of the contenders; figures are
// medians over rounds, and ratios are against one Redis with one worker process in the same run.
//
// Every process (API, workers, receiver, load generator, Redis nodes) shares this machine's cores: with
// fewer cores than processes, more workers or more Redis masters add overhead, not speed. The table
// shows the cost of spreading, not the gain a machine per process would see.
//
// Knobs: BENCH_N (hooks per contender, 3000), BENCH_ROUNDS (2), BENCH_CONNECTIONS (ingest connections,
// 32), BENCH_WORKERS (1,2,4), BENCH_PARTITIONS (4), BENCH_BACKENDS (one,cluster), BENCH_CLUSTER_NODES (seed URLs of an existing cluster, comma-separated;
// unset: one is started), REDIS_URL (the single Redis, redis://127.0.0.1:6379).
import { availableParallelism } from "node:os";
import type { RedisClient } from "../../../src/store/redis-client.ts";
import { type TestCluster, startTestCluster } from "../../../test/support/redis-cluster.ts";
import { deletePrefix, testRedis } from "../../../test/support/test-gateway.ts";
import { configSchema } from "../../../src/config/schema.ts";
import { sendStart } from "../../shared/control.ts";
import { ingest } from "../../shared/exact-load.ts";
import { startReceiver } from "../../shared/receiver-handle.ts";
import { SWITCHYARD_NODE, median, startTarget, table, type Target } from "../../shared/support.ts";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const N = Number(process.env.BENCH_N ?? 3000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const WORKERS = (process.env.BENCH_WORKERS ?? "1,2,4").split(",").map(Number);
const PARTITIONS = Number(process.env.BENCH_PARTITIONS ?? 4);
const BACKENDS = (process.env.BENCH_BACKENDS ?? "one,cluster").split(",");
const TIMEOUT_MS = Math.max(60_000, N * 40);
const body = Buffer.from(JSON.stringify({ type: "invoice.paid", data: { pad: "" } }));
const BODY = JSON.stringify({ type: "invoice.paid", data: { pad: "x".repeat(1024 - body.length) } });

type Backend = "one Redis" | "3-master cluster";
interface Contender {
  readonly backend: Backend;
  readonly workers: number;
}
interface Figures {
  readonly ingest: number;
  readonly e2e: number;
}

let cluster: TestCluster | undefined;
const seeds = process.env.BENCH_CLUSTER_NODES?.split(",").filter(Boolean);
if (!seeds && BACKENDS.includes("cluster")) {
  process.stderr.write("starting a Redis Cluster (3 masters, 3 replicas)…\n");
  cluster = await startTestCluster();
}
const clusterNodes = seeds ?? cluster?.seeds ?? [];
const receiver = await startReceiver();

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

/** One contender once: start its processes, ingest N hooks, wait for the N-th delivery, clean up. */
async function run(c: Contender, round: number): Promise<Figures> {
  const prefix = `bscale${round}${c.backend === "one Redis" ? "s" : "c"}${c.workers}x${process.pid}`;
  const json = JSON.stringify(configOf(c.backend, prefix));
  const children: Target[] = [];
  try {
    const api = await startTarget(SWITCHYARD_NODE, ["api", json]);
    children.push(api);
    const workers = await Promise.all(
      Array.from({ length: c.workers }, () => startTarget(SWITCHYARD_NODE, ["dispatch", json])),
    );
    children.push(...workers);
    await Promise.all(workers.map((w) => sendStart(w.port)));
    const before = await receiver.count();
    const startedAt = Date.now();
    const [load, lastAt] = await Promise.all([
      ingest(api.port, N, BODY),
      receiver.waitFor(before + N, TIMEOUT_MS),
    ]);
    if (load.non2xx > 0)
      process.stderr.write(`${c.backend}, ${c.workers} workers: ${load.non2xx} not accepted\n`);
    return { ingest: load.rate, e2e: (N * 1000) / (lastAt - startedAt) };
  } finally {
    await Promise.all(children.map((t) => t.stop()));
    const redis: RedisClient = testRedis(configSchema().parse(configOf(c.backend, prefix)));
    await deletePrefix(redis, prefix).catch(() => undefined);
    redis.disconnect();
  }
}

const contenders: Contender[] = (["one Redis", "3-master cluster"] as const)
  .filter((backend) => BACKENDS.includes(backend === "one Redis" ? "one" : "cluster"))
  .flatMap((backend) => WORKERS.map((workers) => ({ backend, workers })));
const key = (c: Contender): string => `${c.backend}|${c.workers}`;
const results = new Map<string, Figures[]>(contenders.map((c) => [key(c), []]));
const rows: Record<string, string | number>[] = [];
for (let round = 1; round <= ROUNDS; round++) {
  // Rotate the order each round so a slow spell of the machine does not always hit the same contender.
  const order = contenders.map((_, i) => contenders[(i + round - 1) % contenders.length]!);
  for (const c of order) {
    process.stderr.write(`round ${round}: ${c.backend}, ${c.workers} worker process(es)…\n`);
    const f = await run(c, round);
    results.get(key(c))!.push(f);
    rows.push({
      round,
      backend: c.backend,
      workers: c.workers,
      "ingest/s": Math.round(f.ingest),
      "e2e/s": Math.round(f.e2e),
    });
  }
}

const first = contenders[0]!;
const base = results.get(key(first))!;
const baseIngest = median(base.map((f) => f.ingest));
const baseE2e = median(base.map((f) => f.e2e));
const summary = contenders.map((c) => {
  const fs = results.get(key(c))!;
  const ingestRate = median(fs.map((f) => f.ingest));
  const e2e = median(fs.map((f) => f.e2e));
  return {
    backend: c.backend,
    workers: c.workers,
    "ingest/s": Math.round(ingestRate),
    "ingest ratio": (ingestRate / baseIngest).toFixed(2),
    "e2e/s": Math.round(e2e),
    "e2e ratio": (e2e / baseE2e).toFixed(2),
  };
});
console.log(table(rows));
console.log(
  `\nmedians over ${ROUNDS} round(s), ${N} unsigned 1 KiB hooks each; ratios against ${first.backend}, ${first.workers} worker(s):\n`,
);
console.log(table(summary));
console.log(
  `\n${availableParallelism()} cores for 1 API process, up to ${Math.max(...WORKERS)} workers, the receiver, the load ` +
    `generator and ${cluster ? "6 Redis Cluster nodes plus the single Redis" : "the Redis servers"}: ` +
    "more processes and more masters here measure the overhead of spreading, not a speedup.",
);

await receiver.stop();
await cluster?.stop();

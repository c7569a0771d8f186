// bench:fanout — outbound fanout, Switchyard against a bare BullMQ + undici loop in the same run:
//   fan-out  one event published to 1,000 endpoints while a dispatch-role process (its own child) runs:
//            the time to the 202 (every row written, every job added) and until the receiver has all
//            1,000 deliveries. Baseline: a bare BullMQ Worker running (same concurrency, same Redis,
//            shared/baseline-worker.ts), 1,000 jobs added with Queue.addBulk: the time until they are added,
//            and until the receiver has all 1,000.
//   drain    the 1,000 rows and jobs of an event published while no dispatcher runs; then a dispatch
//            process is started and timed until the receiver has them all. Baseline: 1,000 jobs
//            added, then the bare worker started. The like-for-like delivery rate; target ≥ 80 %.
// Both post the same 1 KiB JSON body to the same receiver (shared/receiver.ts, its own child; endpoints
// differ by path only), Switchyard with its Standard Webhooks headers. Rounds run every contender in an
// order that rotates each round; figures are medians over rounds, beside the per-round ratios.
//
// --quick (BENCH_ENDPOINTS 50, BENCH_ROUNDS 1) is a smoke test; --json FILE writes the medians.
// Knobs: BENCH_ENDPOINTS (1000), BENCH_ROUNDS (5), BENCH_CONCURRENCY (outbound concurrency and baseline
// worker concurrency, 64), BENCH_ONLY (comma-separated parts of contender names), BENCH_NODE_ARGS (node
// flags for the delivering children only, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"), BENCH_AGAINST (a
// checkout of Switchyard with node_modules: its dispatch process drains as one more contender, "against
// drain", so a change is measured against the code before it in the same run), BENCH_ONE_BY_ONE (a
// count K, default 0: off): "one-by-one" contenders (this tree's, and BENCH_AGAINST's) each start a
// dispatch process, then publish K events one at a time to one endpoint of their own, each once the
// previous one arrived; their figures are the publish → arrival p50 and p99 (ms), where an outbound
// attempt's serial round trips show rather than its CPU. BENCH_REDIS_HOP=1: the dispatch processes reach
// Redis through a TCP relay in this process, which adds a hop to each of their round trips (as a Redis
// across a network would).
import { type AddressInfo, connect, createServer } from "node:net";
import { join, resolve } from "node:path";
import { Redis } from "ioredis";
import { type BaselineWorkerOptions, addBaselineJobs } from "../../shared/baseline-worker.ts";
import { benchFlags, knob, progress, writeResult } from "../../shared/flags.ts";
import { type Arrivals, type Usage, measure, startDeliverer } from "../../shared/measure.ts";
import { startReceiver } from "../../shared/receiver-handle.ts";
import { type FanoutResult, orNull } from "../../shared/result-types.ts";
import {
  BASELINE_WORKER,
  SWITCHYARD_NODE,
  deleteKeys,
  median,
  ratioText,
  startTarget,
  table,
} from "../../shared/support.ts";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const flags = benchFlags();
const N = knob("BENCH_ENDPOINTS", flags.quick, 50, 1000);
const ROUNDS = knob("BENCH_ROUNDS", flags.quick, 1, 5);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const WARM = Math.round(N / 5);
const TIMEOUT_MS = Math.max(60_000, N * 50);
const TOKEN = "bench-fanout-admin-token-0123456789";
const BASELINE_QUEUE = "bench";

const padless = JSON.stringify({ order: 0, pad: "" });
const PAYLOAD = { order: 0, pad: "x".repeat(1024 - padless.length) };
const BODY = JSON.stringify(PAYLOAD);

const receiver = await startReceiver();
const redis = new Redis(REDIS_URL);
const syPrefix = `bench-fan-sy-${process.pid}`;
const config = JSON.stringify({
  redis: { url: REDIS_URL, prefix: syPrefix },
  http: { port: 0, host: "127.0.0.1" },
  admin: { tokens: [TOKEN] },
  outbound: { allow_private: true, concurrency: CONCURRENCY },
  sinks: {},
  sources: {},
});

/** One contender's figures in one round. */
interface Figures {
  /** Deliveries/s: from the publish (fan-out) or the start signal (drain) to the N-th arrival. */
  readonly rate: number;
  /** Over the last N − WARM arrivals only. */
  readonly steady: number;
  /** Fan-out only: ms until the rows and jobs were written (the 202; the baseline's addBulk). */
  readonly writtenMs?: number;
  /** ms from the publish (or start signal) to the N-th arrival. */
  readonly deliveredMs: number;
  readonly cpuUs: number;
  readonly redisUs: number;
  readonly note: string;
  /** One-by-one only: publish → arrival, ms. */
  readonly p50Ms?: number;
  readonly p99Ms?: number;
}

interface Contender {
  readonly name: string;
  run(round: number): Promise<Figures>;
}

function figures(usage: Usage, from: number, extra: number, writtenMs?: number): Figures {
  const [warmAt, at] = usage.times;
  return {
    rate: (N * 1000) / (at - from),
    steady: ((N - WARM) * 1000) / (at - warmAt),
    ...(writtenMs !== undefined ? { writtenMs } : {}),
    deliveredMs: at - from,
    cpuUs: usage.cpuUs / N,
    redisUs: usage.redisUs / N,
    note: extra === 0 ? "" : `${extra} extra deliveries`,
  };
}

const now = (): number => performance.timeOrigin + performance.now();

async function arrivalsFrom(): Promise<{ arrived: Arrivals; extra: () => Promise<number> }> {
  const before = await receiver.count();
  return {
    arrived: () =>
      Promise.all([receiver.waitFor(before + WARM, TIMEOUT_MS), receiver.waitFor(before + N, TIMEOUT_MS)]),
    extra: async () => (await receiver.count()) - before - N,
  };
}

/** POST /v1/events to the api process; resolves once it answered 202 with every endpoint `created`. */
async function publishEvent(apiPort: number, id: string): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${apiPort}/v1/events`, {
    method: "POST",
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ id, type: "bench.fanout", payload: PAYLOAD }),
  });
  // The answer lists at most 100 results since fanouts page; `counts` has them all (a tree from before
  // paging, run with --against, has only the list).
  const answer = (await res.json()) as { counts?: { created?: number }; results?: { status: string }[] };
  const created = answer.counts?.created ?? answer.results?.filter((r) => r.status === "created").length ?? 0;
  if (res.status !== 202 || created !== N)
    throw new Error(`publish ${id}: ${res.status}, ${created} of ${N} created`);
}

/** N endpoints on the receiver, each its own path, subscribed to the bench's event type. */
async function createEndpoints(apiPort: number): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < N) {
      const i = next++;
      const res = await fetch(`http://127.0.0.1:${apiPort}/v1/endpoints`, {
        method: "POST",
        headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify({ url: `${receiver.url}/ep/${i}`, event_types: ["bench.*"] }),
      });
      if (res.status !== 201) throw new Error(`endpoint ${i}: ${res.status} ${await res.text()}`);
    }
  };
  await Promise.all(Array.from({ length: 16 }, lane));
}

const baselineArgs = (prefix: string): string[] => {
  const opts: BaselineWorkerOptions = {
    redisUrl: REDIS_URL,
    prefix,
    queue: BASELINE_QUEUE,
    concurrency: CONCURRENCY,
    url: `${receiver.url}/in`,
  };
  return [JSON.stringify(opts), "--on-start"];
};
const basePrefix = (round: number, part: string): string => `bench-fan-base-${part}-${round}-${process.pid}`;

const AGAINST = process.env.BENCH_AGAINST;

/** The config of the dispatch processes: through the relay with BENCH_REDIS_HOP=1. */
const dispatchConfig = await (async (): Promise<string> => {
  if (process.env.BENCH_REDIS_HOP !== "1") return config;
  const redisAt = new URL(REDIS_URL);
  const relay = createServer((down) => {
    const up = connect(Number(redisAt.port || 6379), redisAt.hostname);
    down.setNoDelay(true);
    up.setNoDelay(true);
    down.pipe(up).on("error", () => down.destroy());
    up.pipe(down).on("error", () => up.destroy());
    down.on("error", () => up.destroy());
    up.on("error", () => down.destroy());
  });
  await new Promise<void>((r) => relay.listen(0, "127.0.0.1", r));
  relay.unref();
  const { port } = relay.address() as AddressInfo;
  const parsed = JSON.parse(config) as { redis: Record<string, unknown> };
  return JSON.stringify({ ...parsed, redis: { ...parsed.redis, url: `redis://127.0.0.1:${port}` } });
})();

const ONE_BY_ONE = Number(process.env.BENCH_ONE_BY_ONE ?? 0);

/** Publish K single-endpoint events one at a time through a dispatch process of `node`; latencies. */
async function oneByOne(node: string, round: number, name: string): Promise<Figures> {
  const child = await startDeliverer(node, ["dispatch", dispatchConfig]);
  const latencies: number[] = [];
  const usage = await measure(redis, child, async () => {
    for (let i = 0; i < ONE_BY_ONE; i++) {
      const before = await receiver.count();
      const from = now();
      const res = await fetch(`http://127.0.0.1:${api.port}/v1/events`, {
        method: "POST",
        headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify({ id: `${name}-${round}-${i}`, type: "single.one", payload: PAYLOAD }),
      });
      if (res.status !== 202) throw new Error(`publish ${name} ${i}: ${res.status}`);
      latencies.push((await receiver.waitFor(before + 1, TIMEOUT_MS)) - from);
    }
    return [now(), now()];
  });
  await child.stop();
  latencies.sort((x, y) => x - y);
  const at = (q: number): number =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  const ms = usage.times[1] - usage.startedAt;
  return {
    rate: (ONE_BY_ONE * 1000) / ms,
    steady: NaN,
    deliveredMs: ms,
    cpuUs: usage.cpuUs / ONE_BY_ONE,
    redisUs: usage.redisUs / ONE_BY_ONE,
    note: `p50 ${at(0.5).toFixed(2)} ms, p99 ${at(0.99).toFixed(2)} ms`,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
  };
}

/** Publish an event while no dispatcher runs, then time a dispatch process of `node` draining it. */
async function drain(node: string, round: number, name: string): Promise<Figures> {
  await publishEvent(api.port, `${name}-${round}`); // no dispatcher runs: rows and jobs wait
  const child = await startDeliverer(node, ["dispatch", dispatchConfig]);
  const { arrived, extra } = await arrivalsFrom();
  const usage = await measure(redis, child, arrived);
  await child.stop();
  return figures(usage, usage.startedAt, await extra());
}

const api = await startTarget(SWITCHYARD_NODE, ["api", config]);
const allContenders: Contender[] = [
  {
    name: "switchyard fan-out",
    async run(round) {
      const child = await startDeliverer(SWITCHYARD_NODE, ["dispatch", dispatchConfig]);
      const { arrived, extra } = await arrivalsFrom();
      let from = 0;
      let writtenMs = 0;
      const usage = await measure(redis, child, arrived, async () => {
        from = now();
        await publishEvent(api.port, `fan-${round}`);
        writtenMs = now() - from;
      });
      await child.stop();
      return figures(usage, from, await extra(), writtenMs);
    },
  },
  {
    name: "baseline fan-out",
    async run(round) {
      const prefix = basePrefix(round, "fan");
      const child = await startDeliverer(BASELINE_WORKER, baselineArgs(prefix));
      const { arrived, extra } = await arrivalsFrom();
      let from = 0;
      let writtenMs = 0;
      const usage = await measure(redis, child, arrived, async () => {
        from = now();
        await addBaselineJobs(redis, { prefix, queue: BASELINE_QUEUE }, N, BODY);
        writtenMs = now() - from;
      });
      await child.stop();
      return figures(usage, from, await extra(), writtenMs);
    },
  },
  { name: "switchyard drain", run: (round) => drain(SWITCHYARD_NODE, round, "drain") },
  {
    name: "baseline drain",
    async run(round) {
      const prefix = basePrefix(round, "drain");
      await addBaselineJobs(redis, { prefix, queue: BASELINE_QUEUE }, N, BODY);
      const child = await startDeliverer(BASELINE_WORKER, baselineArgs(prefix));
      const { arrived, extra } = await arrivalsFrom();
      const usage = await measure(redis, child, arrived);
      await child.stop();
      return figures(usage, usage.startedAt, await extra());
    },
  },
  ...(ONE_BY_ONE > 0
    ? [{ name: "switchyard one-by-one", run: (round: number) => oneByOne(SWITCHYARD_NODE, round, "one") }]
    : []),
  ...(ONE_BY_ONE > 0 && AGAINST
    ? [
        {
          name: "against one-by-one",
          run: (round: number) =>
            oneByOne(join(resolve(AGAINST), "bench/shared/switchyard-node.ts"), round, "against-one"),
        },
      ]
    : []),
  ...(AGAINST
    ? [
        {
          name: "against drain",
          run: (round: number) =>
            drain(join(resolve(AGAINST), "bench/shared/switchyard-node.ts"), round, "against"),
        },
      ]
    : []),
];
const ONLY = process.env.BENCH_ONLY?.split(",").map((s) => s.trim());
const contenders = allContenders.filter((c) => ONLY === undefined || ONLY.some((o) => c.name.includes(o)));

const rows: Record<string, string | number>[] = [];
const results = new Map<string, Figures[]>(contenders.map((c) => [c.name, []]));
console.log(`bench:fanout endpoints=${N} rounds=${ROUNDS} concurrency=${CONCURRENCY}`);
try {
  const started = now();
  progress(`creating ${N} endpoints`);
  await createEndpoints(api.port);
  if (ONE_BY_ONE > 0) {
    const res = await fetch(`http://127.0.0.1:${api.port}/v1/endpoints`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ url: `${receiver.url}/single`, event_types: ["single.*"] }),
    });
    if (res.status !== 201) throw new Error(`the one-by-one endpoint: ${res.status} ${await res.text()}`);
  }
  console.error(`  ${N} endpoints created in ${Math.round(now() - started)} ms`);
  for (let round = 1; round <= ROUNDS; round++) {
    const order = contenders.map((_, i) => contenders[(i + round - 1) % contenders.length]!);
    try {
      for (const c of order) {
        progress(`round ${round}/${ROUNDS}: ${c.name}, ${N} endpoints`);
        const r = await c.run(round);
        results.get(c.name)!.push(r);
        rows.push({
          round,
          contender: c.name,
          "written ms": r.writtenMs === undefined ? "" : Math.round(r.writtenMs),
          "delivered ms": Math.round(r.deliveredMs),
          "deliveries/s": Math.round(r.rate),
          "warm/s": Math.round(r.steady),
          "cpu µs/dlv": Math.round(r.cpuUs),
          "redis µs/dlv": Math.round(r.redisUs),
          note: r.note,
        });
        console.error(`  ${JSON.stringify(rows.at(-1))}`);
      }
    } finally {
      for (const part of ["fan", "drain"]) await deleteKeys(redis, basePrefix(round, part));
    }
  }
} finally {
  await api.stop();
  await deleteKeys(redis, syPrefix);
  await receiver.stop();
  redis.disconnect();
}

type Figure = "rate" | "steady" | "writtenMs" | "deliveredMs" | "cpuUs" | "redisUs" | "p50Ms" | "p99Ms";
const of = (name: string, f: Figure): number[] => (results.get(name) ?? []).map((r) => r[f] ?? NaN);
const med = (name: string, f: Figure): string => String(Math.round(median(of(name, f))));
const ratio = (a: string, b: string, f: Figure): string => ratioText(of(a, f), of(b, f));
const ran = (...names: string[]): boolean => names.every((n) => (results.get(n)?.length ?? 0) > 0);

console.log(`\n${table(rows)}\n`);
const [syFan, baseFan, syDrain, baseDrain] = allContenders.map((c) => c.name) as [
  string,
  string,
  string,
  string,
];
if (ran(syFan, baseFan)) {
  console.log(
    `fan-out of 1 event to ${N} endpoints, medians: 202 (rows and jobs written) after ${med(syFan, "writtenMs")} ms vs baseline addBulk ${med(baseFan, "writtenMs")} ms; all delivered after ${med(syFan, "deliveredMs")} ms vs ${med(baseFan, "deliveredMs")} ms`,
  );
  console.log(
    `  deliveries/s from publish: switchyard ${med(syFan, "rate")}, baseline ${med(baseFan, "rate")}; ratio ${ratio(syFan, baseFan, "rate")}`,
  );
}
if (ran(syDrain, baseDrain)) {
  console.log(
    `drain of ${N} queued deliveries, median deliveries/s: switchyard ${med(syDrain, "rate")}, baseline ${med(baseDrain, "rate")}; ratio ${ratio(syDrain, baseDrain, "rate")}; target ≥ 80%`,
  );
  console.log(
    `  warm (last 80%): switchyard ${med(syDrain, "steady")}, baseline ${med(baseDrain, "steady")}; ratio ${ratio(syDrain, baseDrain, "steady")}`,
  );
  console.log(
    `  CPU µs per delivery of the delivering process: switchyard ${med(syDrain, "cpuUs")} vs baseline ${med(baseDrain, "cpuUs")}, ${ratio(syDrain, baseDrain, "cpuUs")}; Redis (shared, indicative) ${med(syDrain, "redisUs")} vs ${med(baseDrain, "redisUs")}`,
  );
}

if (ran(syDrain, "against drain"))
  console.log(
    `  against ${AGAINST}: ${med("against drain", "rate")} deliveries/s; this tree ÷ that one ${ratio(syDrain, "against drain", "rate")}, CPU µs per delivery ${med(syDrain, "cpuUs")} vs ${med("against drain", "cpuUs")}`,
  );

for (const name of ["switchyard one-by-one", "against one-by-one"])
  if (ran(name))
    console.log(
      `${name}, ${ONE_BY_ONE} events one at a time to one endpoint, medians over rounds: publish → arrival p50 ${median(of(name, "p50Ms")).toFixed(2)} ms, p99 ${median(of(name, "p99Ms")).toFixed(2)} ms`,
    );
if (ran("switchyard one-by-one", "against one-by-one"))
  console.log(
    `  this tree ÷ ${AGAINST}: p50 ${ratio("switchyard one-by-one", "against one-by-one", "p50Ms")}, p99 ${ratio("switchyard one-by-one", "against one-by-one", "p99Ms")}`,
  );

const FIGURES: readonly Figure[] = ["rate", "steady", "writtenMs", "deliveredMs", "cpuUs", "redisUs"];
const medians = (name: string): Record<Figure, number | null> =>
  Object.fromEntries(FIGURES.map((f) => [f, orNull(median(of(name, f)))])) as Record<Figure, number | null>;
writeResult(flags.json, {
  script: "fanout",
  quick: flags.quick,
  endpoints: N,
  rounds: ROUNDS,
  concurrency: CONCURRENCY,
  contenders: Object.fromEntries(contenders.map((c) => [c.name, medians(c.name)])),
} satisfies FanoutResult);

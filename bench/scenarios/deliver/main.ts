// bench:deliver — delivered hooks/s, Switchyard against a bare baseline in the same run, for two sinks:
//   http  drain: N hooks ingested with no dispatcher running, then a dispatch-role process (its own child)
//               is started and timed until the receiver has them all; baseline: a bare BullMQ Worker (same
//               concurrency, same Redis) POSTing N pre-added jobs (Queue.addBulk, same 1 KiB body) with undici.
//         e2e:  an api-role process and a dispatch-role process (two children, as the Procfile splits web and
//               worker), timed from the first POST to ingest until the receiver has all N. No baseline of its
//               own: it is shown beside the baseline drain for scale, not as a like-for-like ratio.
//   amqp  drain to RabbitMQ through the amqp sink, unbatched and with batch {max 256, max_delay_ms 5}, beside a
//         bare amqplib confirm-channel loop with as many publishes in flight as the sink's concurrency.
// The HTTP receiver is the shared receiver (shared/receiver.ts) in its own child. Rounds run every contender, in an order that
// rotates each round; every figure is a median over rounds and the result is the ratio. Beside the rates, each
// row shows the CPU the delivering process used per delivery (process.cpuUsage, from its start signal to the
// N-th arrival) and Redis's (INFO cpu, shared with anything else using it): on a busy shared machine the
// rates swing from round to round, the CPU cost per delivery much less.
//
// Knobs: BENCH_N (hooks per contender, 8000), BENCH_ROUNDS (3), BENCH_CONCURRENCY (dispatch concurrency and
// baseline in-flight, 64), BENCH_CONNECTIONS (ingest connections, 32), BENCH_ROWS (http,amqp),
// BENCH_AMQP_DURABLE (1: durable queue), BENCH_ONLY (comma-separated parts of contender names, to profile
// one), BENCH_NODE_ARGS (node flags for the delivering children only: the Switchyard dispatch processes and
// the baselines, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
import { Redis } from "ioredis";
import { fileURLToPath } from "node:url";
import { type BaselineWorkerOptions, addBaselineJobs } from "../../shared/baseline-worker.ts";
import { ingest } from "../../shared/exact-load.ts";
import { type Arrivals, type Usage, measure, startDeliverer } from "../../shared/measure.ts";
import { startReceiver } from "../../shared/receiver-handle.ts";
import {
  BASELINE_WORKER,
  SWITCHYARD_NODE,
  deleteKeys,
  startTarget,
  type Target,
} from "../../shared/support.ts";
import { ROUTING_KEY, lookalikeMessage, openBroker } from "./amqp.ts";
import type { AmqplibBaseline } from "./amqplib-baseline.ts";
import { type Result, printReport } from "./report.ts";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const AMQP_URL = process.env.AMQP_URL ?? "amqp://guest:guest@127.0.0.1:5672";
const N = Number(process.env.BENCH_N ?? 8000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const ROWS = new Set((process.env.BENCH_ROWS ?? "http,amqp").split(",").map((r) => r.trim()));
const DURABLE = process.env.BENCH_AMQP_DURABLE !== "0";
/** Arrivals that count as warm-up for the "steady" figure. */
const WARM = Math.round(N / 5);
const TIMEOUT_MS = Math.max(60_000, N * 25);
const BASELINE_QUEUE = { queue: "bench" };

const body = Buffer.from(JSON.stringify({ type: "invoice.paid", data: { pad: "" } }));
const BODY = JSON.stringify({ type: "invoice.paid", data: { pad: "x".repeat(1024 - body.length) } });

interface Contender {
  readonly name: string;
  readonly row: string;
  run(round: RoundPrefixes): Promise<Result>;
}
interface RoundPrefixes {
  readonly sy: string;
  readonly base: string;
  readonly e2e: string;
}

const AMQPLIB_BASELINE = fileURLToPath(new URL("./amqplib-baseline.ts", import.meta.url));
const receiver = await startReceiver();
const redis = new Redis(REDIS_URL);
const broker = ROWS.has("amqp") ? await openBroker(AMQP_URL, DURABLE) : undefined;

const sinks: Record<string, Record<string, unknown>> = {
  http: { type: "http", url: `${receiver.url}/in` },
  amqp: { type: "amqp", url: AMQP_URL, exchange: broker?.exchange ?? "-", routing_key: ROUTING_KEY },
  amqpb: {
    type: "amqp",
    url: AMQP_URL,
    exchange: broker?.exchange ?? "-",
    routing_key: ROUTING_KEY,
    batch: { max: 256, max_delay_ms: 5 },
  },
};

function configJson(prefix: string, sinkNames: readonly string[]): string {
  return JSON.stringify({
    redis: { url: REDIS_URL, prefix },
    http: { port: 0, host: "127.0.0.1" },
    dispatch: { concurrency: CONCURRENCY },
    sinks: Object.fromEntries(sinkNames.map((s) => [s, sinks[s]])),
    sources: { bench: { verify: { type: "none" }, dedup: { header: "x-bench-id" }, sinks: sinkNames } },
  });
}

function result({ startedAt, times: [warmAt, at], cpuUs, redisUs }: Usage, note: string): Result {
  const seconds = (at - startedAt) / 1000;
  return {
    rate: N / seconds,
    steady: ((N - WARM) * 1000) / (at - warmAt),
    seconds,
    cpuUs: cpuUs / N,
    redisUs: redisUs / N,
    note,
  };
}

/** Start a delivering child and time it until `arrived` resolves; `extra` counts duplicates afterwards. */
async function timeDrain(child: Target, arrived: Arrivals, extra: () => Promise<number>): Promise<Result> {
  const usage = await measure(redis, child, arrived);
  await child.stop();
  const dup = await extra();
  return result(usage, dup === 0 ? "" : `${dup} extra deliveries`);
}

async function httpDrain(script: string, args: string[]): Promise<Result> {
  const child = await startDeliverer(script, args);
  const before = await receiver.count();
  return timeDrain(
    child,
    () => receiverArrivals(before),
    async () => (await receiver.count()) - before - N,
  );
}

function receiverArrivals(before: number): Promise<[number, number]> {
  return Promise.all([receiver.waitFor(before + WARM, TIMEOUT_MS), receiver.waitFor(before + N, TIMEOUT_MS)]);
}

async function amqpDrain(script: string, args: string[]): Promise<Result> {
  const b = broker!;
  await b.purge();
  const child = await startDeliverer(script, args);
  const r = await timeDrain(
    child,
    async () => (await b.waitFor([WARM, N], TIMEOUT_MS)) as [number, number],
    async () => (await b.count()) - N,
  );
  const size = await b.sampleSize();
  await b.purge();
  return { ...r, note: [r.note, `${size ?? "?"} B/msg`].filter(Boolean).join("; ") };
}

const message = lookalikeMessage(Buffer.from(BODY));
const allContenders: Contender[] = [
  {
    name: "switchyard e2e",
    row: "http",
    async run({ e2e }) {
      const cfg = configJson(e2e, ["http"]);
      const [api, dispatch] = await Promise.all([
        startTarget(SWITCHYARD_NODE, ["api", cfg]),
        startDeliverer(SWITCHYARD_NODE, ["dispatch", cfg]),
      ]);
      const before = await receiver.count();
      let loaded = { ok: 0, non2xx: 0, rate: 0 };
      let firstPostAt = 0;
      // The dispatch process's CPU only; Redis's includes ingest's writes.
      const usage = await measure(
        redis,
        dispatch,
        () => receiverArrivals(before),
        async () => {
          firstPostAt = performance.timeOrigin + performance.now();
          loaded = await ingest(api.port, N, BODY);
        },
      );
      await Promise.all([api.stop(), dispatch.stop()]);
      const dup = (await receiver.count()) - before - N;
      const notes = [`ingest ${Math.round(loaded.rate)}/s`];
      if (loaded.non2xx > 0) notes.push(`${loaded.non2xx} non-2xx at ingest`);
      if (dup !== 0) notes.push(`${dup} extra deliveries`);
      return result({ ...usage, startedAt: firstPostAt }, notes.join("; "));
    },
  },
  {
    name: "switchyard drain",
    row: "http",
    run: ({ sy }) => httpDrain(SWITCHYARD_NODE, ["dispatch", configJson(sy, ["http"])]),
  },
  {
    name: "baseline bullmq+undici",
    row: "http",
    run: ({ base }) => {
      const opts: BaselineWorkerOptions = {
        ...BASELINE_QUEUE,
        redisUrl: REDIS_URL,
        prefix: base,
        concurrency: CONCURRENCY,
        url: `${receiver.url}/in`,
      };
      return httpDrain(BASELINE_WORKER, [JSON.stringify(opts), "--on-start"]);
    },
  },
  {
    name: "switchyard unbatched",
    row: "amqp",
    run: ({ sy }) => amqpDrain(SWITCHYARD_NODE, ["dispatch", configJson(sy, ["amqp"])]),
  },
  {
    name: "switchyard batch 256/5ms",
    row: "amqp",
    run: ({ sy }) => amqpDrain(SWITCHYARD_NODE, ["dispatch", configJson(sy, ["amqpb"])]),
  },
  {
    name: "baseline amqplib",
    row: "amqp",
    run: () => {
      const opts: AmqplibBaseline = {
        url: AMQP_URL,
        exchange: broker!.exchange,
        routingKey: ROUTING_KEY,
        n: N,
        inFlight: CONCURRENCY,
        contentBase64: message.content.toString("base64"),
        headers: message.headers,
      };
      return amqpDrain(AMQPLIB_BASELINE, [JSON.stringify(opts)]);
    },
  },
];
const ONLY = process.env.BENCH_ONLY?.split(",").map((s) => s.trim());
const contenders = allContenders.filter(
  (c) => ROWS.has(c.row) && (ONLY === undefined || ONLY.some((o) => c.name.includes(o))),
);

/** The hooks every Switchyard drain of a round works off: ingested once, one job per drained sink. */
async function fill({ sy, base }: RoundPrefixes): Promise<void> {
  const drained = [...(ROWS.has("http") ? ["http"] : []), ...(ROWS.has("amqp") ? ["amqp", "amqpb"] : [])];
  const api = await startTarget(SWITCHYARD_NODE, ["api", configJson(sy, drained)]);
  const loaded = await ingest(api.port, N, BODY).finally(() => api.stop());
  if (loaded.ok !== N)
    throw new Error(`ingest accepted ${loaded.ok} of ${N} hooks (${loaded.non2xx} non-2xx)`);
  if (ROWS.has("http")) await addBaselineJobs(redis, { prefix: base, queue: BASELINE_QUEUE.queue }, N, BODY);
}

const rows: Record<string, string | number>[] = [];
const results = new Map<string, Result[]>(contenders.map((c) => [c.name, []]));
console.log(
  `bench:deliver N=${N} rounds=${ROUNDS} concurrency=${CONCURRENCY} rows=${[...ROWS].join(",")} amqp queue ${DURABLE ? "durable" : "transient"}`,
);
try {
  for (let round = 1; round <= ROUNDS; round++) {
    const tag = `${round}-${process.pid}`;
    const prefixes = {
      sy: `bench-dlv-sy-${tag}`,
      base: `bench-dlv-base-${tag}`,
      e2e: `bench-dlv-e2e-${tag}`,
    };
    try {
      await fill(prefixes);
      const order = contenders.map((_, i) => contenders[(i + round - 1) % contenders.length]!);
      for (const c of order) {
        const r = await c.run(prefixes);
        results.get(c.name)!.push(r);
        const row = { round, sink: c.row, contender: c.name, "deliveries/s": Math.round(r.rate) };
        rows.push({
          ...row,
          "warm/s": Math.round(r.steady),
          seconds: r.seconds.toFixed(2),
          "cpu µs/dlv": Math.round(r.cpuUs),
          "redis µs/dlv": Math.round(r.redisUs),
          note: r.note,
        });
        console.error(`  ${JSON.stringify(rows.at(-1))}`);
      }
    } finally {
      for (const p of Object.values(prefixes)) await deleteKeys(redis, p);
    }
  }
} finally {
  await broker?.close();
  await receiver.stop();
  redis.disconnect();
}

printReport(rows, results);

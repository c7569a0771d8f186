// bench:tracing — what tracing costs, side by side in one run. Variants of the same Switchyard:
//   off   this tree, no OTEL_* variable (tracing off);
//   on    this tree, OTEL_EXPORTER_OTLP_ENDPOINT at a local endpoint that discards every export (OTLP
//         http/protobuf: spans, serialization and export requests are paid, a collector's work is not);
//   base  BENCH_BASE_TREE, when set: another checkout (e.g. the commit before tracing), no OTEL_*.
// Each round runs every variant, in an order that rotates, through two parts:
//   ingest  bench:ingest's signed 1 KiB load against the variant's api-only process for BENCH_SECONDS;
//   drain   BENCH_N hooks ingested by the variant's api process, then its dispatch process timed until a
//           bare receiver has them all (bench:deliver's "switchyard drain").
// Besides rates, each row has the CPU the variant's process used per hook (µs): on a shared, busy machine
// rates swing from round to round and CPU per hook much less. The result is each variant's medians as a
// ratio of `off`'s, with the per-round ratios beside it.
// Knobs: BENCH_ROUNDS (5), BENCH_SECONDS (5), BENCH_N (4000), BENCH_CONNECTIONS (32), BENCH_CONCURRENCY (64),
// BENCH_PARTS (ingest,drain), BENCH_VARIANTS (off,on,base: which to run; off always runs, as the reference).
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import { cpuSinceStart, sendStart } from "../../shared/control.ts";
import { ingest } from "../../shared/exact-load.ts";
import { listenReceiver } from "../../shared/receiver.ts";
import { startReceiver } from "../../shared/receiver-handle.ts";
import { signedLoad, signedSourceConfig } from "../../shared/signed-load.ts";
import { deleteKeys, median, startTarget, table, type Target } from "../../shared/support.ts";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const N = Number(process.env.BENCH_N ?? 4000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const HERE = resolve(fileURLToPath(new URL("../../..", import.meta.url)));
const SECRET = `whsec_${randomBytes(24).toString("base64")}`;
const BODY = JSON.stringify({ type: "invoice.paid", data: { pad: "x".repeat(960) } }).slice(0, 1024);
const OTEL_VARS = Object.keys(process.env).filter((k) => k.startsWith("OTEL_"));
const PARTS = (process.env.BENCH_PARTS ?? "ingest,drain").split(",").map((p) => p.trim());
const WANTED = new Set([
  "off",
  ...(process.env.BENCH_VARIANTS ?? "off,on,base").split(",").map((v) => v.trim()),
]);

interface Variant {
  readonly name: string;
  readonly tree: string;
  readonly env: Readonly<Record<string, string>>;
}

/** Clock ticks a process has run (user + system), from /proc: the child's own CPU, in µs. */
function cpuUsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100; // USER_HZ is 100 on Linux
}

/**
 * The Switchyard process script of a tree: shared/switchyard-node.ts, or bench/deliver-node.ts (the same
 * arguments) in a checkout from before bench/ was arranged in folders.
 */
function switchyardNodeOf(tree: string): string {
  const here = "bench/shared/switchyard-node.ts";
  return existsSync(join(tree, here)) ? here : "bench/deliver-node.ts";
}

/** Spawn `script` of `v`'s tree with `v`'s OTEL_* variables (and none of the parent's). */
function spawnIn(v: Variant, script: string, args: string[]): Promise<Target> {
  const saved = { ...process.env };
  for (const k of OTEL_VARS) delete process.env[k];
  Object.assign(process.env, v.env);
  try {
    return startTarget(join(v.tree, script), args); // spawns before its first await
  } finally {
    for (const k of Object.keys(v.env)) delete process.env[k];
    Object.assign(process.env, saved);
  }
}

interface Figures {
  readonly rate: number;
  readonly cpuUs: number;
  readonly p99?: number;
}

async function ingestPart(v: Variant, prefix: string): Promise<Figures> {
  const config = JSON.stringify(signedSourceConfig(REDIS_URL, prefix, SECRET));
  const target = await spawnIn(v, switchyardNodeOf(v.tree), ["api", config]);
  const load = { secret: SECRET, body: BODY, connections: CONNECTIONS };
  await signedLoad(target.port, { ...load, seconds: 1 }); // warm-up
  const cpu0 = cpuUsOf(target.child.pid!);
  const r = await signedLoad(target.port, { ...load, seconds: SECONDS });
  const cpuUs = cpuUsOf(target.child.pid!) - cpu0;
  await target.stop();
  return { rate: r.rps, cpuUs: cpuUs / Math.max(1, r.accepted), p99: r.p99 };
}

async function drainPart(
  v: Variant,
  prefix: string,
  receiver: Awaited<ReturnType<typeof startReceiver>>,
): Promise<Figures> {
  const config = JSON.stringify({
    redis: { url: REDIS_URL, prefix },
    http: { port: 0, host: "127.0.0.1" },
    dispatch: { concurrency: CONCURRENCY },
    sinks: { http: { type: "http", url: `${receiver.url}/in` } },
    sources: { bench: { verify: { type: "none" }, dedup: { header: "x-bench-id" }, sinks: ["http"] } },
  });
  const api = await spawnIn(v, switchyardNodeOf(v.tree), ["api", config]);
  const loaded = await ingest(api.port, N, BODY).finally(() => api.stop());
  if (loaded.ok !== N) throw new Error(`${v.name}: ingest accepted ${loaded.ok} of ${N}`);
  const dispatch = await spawnIn(v, switchyardNodeOf(v.tree), ["dispatch", config]);
  const before = await receiver.count();
  const startedAt = await sendStart(dispatch.port);
  const at = await receiver.waitFor(before + N, Math.max(60_000, N * 25));
  const cpuUs = await cpuSinceStart(dispatch.port);
  await dispatch.stop();
  return { rate: (N * 1000) / (at - startedAt), cpuUs: cpuUs / N };
}

// An OTLP endpoint that reads and discards every export (the shared receiver, answering as a collector).
const collector = await listenReceiver({ answer: { status: 200, contentType: "application/x-protobuf" } });
const all: Variant[] = [
  { name: "off", tree: HERE, env: {} },
  { name: "on", tree: HERE, env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url } },
  ...(process.env.BENCH_BASE_TREE
    ? [{ name: "base", tree: resolve(process.env.BENCH_BASE_TREE), env: {} }]
    : []),
];
const variants = all.filter((v) => WANTED.has(v.name));
const receiver = await startReceiver();
const redis = new Redis(REDIS_URL);
const results = new Map<string, Figures[]>();
const rows: Record<string, string | number>[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const order = variants.map((_, i) => variants[(i + round) % variants.length]!);
  for (const part of PARTS) {
    for (const v of order) {
      const prefix = `bench-tr-${v.name}-${part}-${round}-${process.pid}`;
      const f = part === "ingest" ? await ingestPart(v, prefix) : await drainPart(v, prefix, receiver);
      await deleteKeys(redis, prefix);
      const key = `${part} ${v.name}`;
      results.set(key, [...(results.get(key) ?? []), f]);
      rows.push({
        round: round + 1,
        part,
        variant: v.name,
        "per s": Math.round(f.rate),
        "CPU µs/hook": Math.round(f.cpuUs),
        "p99 ms": f.p99 ?? "-",
      });
    }
  }
}
await receiver.stop();
redis.disconnect();
await collector.stop();

console.log(table(rows));
console.log(`\n${collector.count()} exports reached the discarding collector`);
for (const part of PARTS) {
  const off = results.get(`${part} off`)!;
  for (const v of variants.filter((x) => x.name !== "off")) {
    const mine = results.get(`${part} ${v.name}`)!;
    for (const fig of ["rate", "cpuUs"] as const) {
      const perRound = mine.map((r, i) => ((100 * r[fig]) / off[i]![fig]).toFixed(0)).join("/");
      const ratio = (100 * median(mine.map((r) => r[fig]))) / median(off.map((r) => r[fig]));
      const what = fig === "rate" ? (part === "ingest" ? "hooks/s" : "deliveries/s") : "CPU µs per hook";
      console.log(`${part}: ${v.name} vs off, median ${what}: ${ratio.toFixed(1)}% (per round ${perRound})`);
    }
  }
}

// bench:ingest-ab — the ingest path of this tree against another checkout (BENCH_BASE_TREE), in ONE process:
// both trees' gateways (api role, no socket) take signed 1 KiB hooks through `app.request`, in short blocks
// that alternate, so a busy shared machine slows both alike. The figure is CPU per accepted hook of this
// process (verify, dedup, persist and enqueue, and the Redis client's side; Redis itself runs apart), as
// the median over blocks, and its ratio. `this+otel` adds this tree with tracing on, exporting to a local
// endpoint that discards (BENCH_TRACING=1).
// Knobs: BENCH_BASE_TREE (required), BENCH_BLOCKS (10 per variant), BENCH_BLOCK (1500 hooks), BENCH_INFLIGHT (32).
import { randomBytes } from "node:crypto";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import { Webhook } from "standardwebhooks";
import { listenReceiver } from "../../shared/receiver.ts";
import { signedSourceConfig } from "../../shared/signed-load.ts";
import { deleteKeys, median, signedHeaders, table } from "../../shared/support.ts";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const BASE = process.env.BENCH_BASE_TREE;
if (!BASE) throw new Error("set BENCH_BASE_TREE to the checkout to compare with");
const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 10);
const BLOCK = Number(process.env.BENCH_BLOCK ?? 1500);
const INFLIGHT = Number(process.env.BENCH_INFLIGHT ?? 32);
const HERE = resolve(fileURLToPath(new URL("../../..", import.meta.url)));
const SECRET = `whsec_${randomBytes(24).toString("base64")}`;
const BODY = JSON.stringify({ type: "invoice.paid", data: { pad: "x".repeat(960) } }).slice(0, 1024);
const webhook = new Webhook(SECRET);

interface App {
  request(path: string, init: RequestInit): Response | Promise<Response>;
}
interface Started {
  readonly app: App | undefined;
  stop(): Promise<void>;
}
type StartGateway = (config: unknown, opts: Record<string, unknown>) => Promise<Started>;

async function gatewayOf(tree: string, prefix: string, otelEnv: Record<string, string>): Promise<Started> {
  // A function since sink types and verify presets are plugins; a plain schema in trees before that.
  const { configSchema } = (await import(join(tree, "src/config/schema.ts"))) as {
    configSchema: { parse(v: unknown): unknown } | (() => { parse(v: unknown): unknown });
  };
  const { silentLogger } = (await import(join(tree, "src/observability/logger.ts"))) as {
    silentLogger(): unknown;
  };
  const { Metrics } = (await import(join(tree, "src/observability/metrics.ts"))) as {
    Metrics: new () => unknown;
  };
  const { startGateway } = (await import(join(tree, "src/runtime/gateway.ts"))) as {
    startGateway: StartGateway;
  };
  const schema = typeof configSchema === "function" ? configSchema() : configSchema;
  const config = schema.parse(signedSourceConfig(REDIS_URL, prefix, SECRET));
  return startGateway(config, {
    roles: ["api"],
    listen: false,
    logger: silentLogger(),
    metrics: new Metrics(),
    otelEnv,
  });
}

let counter = 0;
function signedRequest(): RequestInit {
  const id = `msg_${process.pid}_${counter++}`;
  return { method: "POST", body: BODY, headers: signedHeaders(webhook, id, BODY) };
}

/** `n` hooks with INFLIGHT in flight; CPU µs of this process per accepted hook. */
async function block(app: App, n: number): Promise<{ cpuUs: number; rate: number }> {
  const requests = Array.from({ length: n }, signedRequest); // signing is not the gateway's cost
  let next = 0;
  let accepted = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: INFLIGHT }, async () => {
      while (next < n) {
        const res = await app.request("/webhooks/bench", requests[next++]!);
        if (res.status === 202) accepted += 1;
        await res.arrayBuffer();
      }
    }),
  );
  const { user, system } = process.cpuUsage(cpu0);
  if (accepted !== n) throw new Error(`accepted ${accepted} of ${n}`);
  return { cpuUs: (user + system) / n, rate: (n * 1000) / (performance.now() - t0) };
}

// An OTLP endpoint that discards every export (the shared receiver, answering as a collector).
const discard = await listenReceiver({ answer: { status: 200, contentType: "application/x-protobuf" } });
const collector = discard.url;

const tag = `bench-ab-${process.pid}`;
const variants: { name: string; tree: string; env: Record<string, string> }[] = [
  { name: "base", tree: resolve(BASE), env: {} },
  { name: "this", tree: HERE, env: {} },
  ...(process.env.BENCH_TRACING === "1"
    ? [{ name: "this+otel", tree: HERE, env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector } }]
    : []),
];
const gateways = await Promise.all(variants.map((v, i) => gatewayOf(v.tree, `${tag}-${i}`, v.env)));
for (const gw of gateways) await block(gw.app!, 500); // warm-up: JIT, connections

const results = new Map<string, { cpuUs: number; rate: number }[]>();
const rows: Record<string, string | number>[] = [];
for (let b = 0; b < BLOCKS; b++) {
  for (let k = 0; k < variants.length; k++) {
    const i = (k + b) % variants.length;
    const r = await block(gateways[i]!.app!, BLOCK);
    const name = variants[i]!.name;
    results.set(name, [...(results.get(name) ?? []), r]);
    rows.push({
      block: b + 1,
      variant: name,
      "CPU µs/hook": Math.round(r.cpuUs),
      "hooks/s": Math.round(r.rate),
    });
  }
}
await Promise.all(gateways.map((gw) => gw.stop()));
await discard.stop();
const redis = new Redis(REDIS_URL);
for (let i = 0; i < variants.length; i++) await deleteKeys(redis, `${tag}-${i}`);
redis.disconnect();

console.log(table(rows));
const base = results.get("base")!;
for (const v of variants.slice(1)) {
  const mine = results.get(v.name)!;
  const perBlock = mine.map((r, i) => ((100 * r.cpuUs) / base[i]!.cpuUs).toFixed(0)).join("/");
  const ratio = (100 * median(mine.map((r) => r.cpuUs))) / median(base.map((r) => r.cpuUs));
  console.log(
    `${v.name} vs base, median CPU µs per hook: ${median(mine.map((r) => r.cpuUs)).toFixed(0)} vs ${median(base.map((r) => r.cpuUs)).toFixed(0)} = ${ratio.toFixed(1)}% (per block ${perBlock})`,
  );
}

// bench:dlq — what one DLQ page costs when the DLQ is large. Fills N dead entries (100,000 by default)
// through the ledger (a hook persisted, its row dead-lettered), then times `GET /v1/dlq?limit=100` (median of several) against
// listing every entry page by page, in the same run. A page must cost O(page): the ratio shows it.
//
//   npm run bench:dlq -- [--quick] [--json FILE]
//
// Knobs: BENCH_DLQ_ENTRIES (100,000; quick 5,000), BENCH_PAGE_RUNS (25; quick 10), BENCH_FULL_RUNS (3;
// quick 1), REDIS_URL (redis://127.0.0.1:6379; `npm run bench` gives it a private redis-server).
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { configSchema } from "../../../src/config/schema.ts";
import type { ErrorClass } from "../../../src/domain/error-class.ts";
import { idempotencyKey, sinkDeliveryId } from "../../../src/domain/hook.ts";
import { bucketFor, newId } from "../../../src/domain/ids.ts";
import { silentLogger } from "../../../src/observability/logger.ts";
import { Metrics } from "../../../src/observability/metrics.ts";
import { startGateway } from "../../../src/runtime/gateway.ts";
import { DeliveryStore } from "../../../src/store/delivery-store.ts";
import { HookStore } from "../../../src/store/hook-store.ts";
import { Keys } from "../../../src/store/keys.ts";
import { benchFlags, knob, progress, writeResult } from "../../shared/flags.ts";
import { type DlqResult, orNull } from "../../shared/result-types.ts";
import { deleteKeys, median } from "../../shared/support.ts";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const flags = benchFlags();
const N = knob("BENCH_DLQ_ENTRIES", flags.quick, 5000, 100_000);
const PAGE_RUNS = knob("BENCH_PAGE_RUNS", flags.quick, 10, 25);
const FULL_RUNS = knob("BENCH_FULL_RUNS", flags.quick, 1, 3);
const TOKEN = "bench-admin-token-0123456789";
const CLASSES: ErrorClass[] = ["permanent", "throttled", "transient"];

/**
 * Fill the DLQ with `n` real dead deliveries, made as the ledger makes them: a hook persisted with its
 * row, then the row dead-lettered. `chunk` of them in flight at a time (auto-pipelined on the socket).
 */
export async function fillDlq(
  redis: Redis,
  keys: Keys,
  n: number,
  now = Date.now(),
  chunk = 2000,
): Promise<void> {
  const ledger = new DeliveryStore(redis, keys, { retentionS: 3600, staleAfterMs: 3_600_000 });
  const hooks = new HookStore(redis, keys, ledger);
  for (let i = 0; i < n; i += chunk) {
    const adds: Promise<unknown>[] = [];
    for (let j = i; j < Math.min(n, i + chunk); j++) {
      const deadAt = now - (n - j) * 10;
      const source = `src${j % 10}`;
      const tenant = j % 2 ? "acme" : undefined;
      const body = Buffer.from(`{"n":${j}}`);
      const dedupKey = `bench:${j}:${Math.random()}`;
      const identity = idempotencyKey(tenant, source, dedupKey);
      const id = newId("hk", deadAt, bucketFor(identity));
      const hook = {
        id,
        source,
        tenant,
        receivedAt: deadAt - 86_400_000,
        contentType: "application/json",
        headers: {},
        body,
        sha256: dedupKey,
        dedupKey,
        idempotencyKey: identity,
        sinks: ["out"],
      };
      const row = {
        id: sinkDeliveryId(id, "out"),
        parentId: id,
        target: { kind: "sink" as const, name: "out" },
        source,
        tenant,
      };
      adds.push(
        hooks
          .persist(hook, { dedupTtlS: 3600, staleAfterMs: 3_600_000 })
          .then(() =>
            ledger.finish(
              row,
              "unfenced",
              { outcome: "dead", reason: "HTTP 503", errorClass: CLASSES[j % 3] as ErrorClass },
              deadAt,
            ),
          ),
      );
    }
    await Promise.all(adds);
  }
}

async function getJson(url: string): Promise<{ data: unknown[]; next_cursor: string | null }> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { data: unknown[]; next_cursor: string | null };
}

/** Time one page of `limit=100`, in ms. */
async function timePage(base: string): Promise<number> {
  const t = performance.now();
  const page = await getJson(`${base}/v1/dlq?limit=100`);
  if (page.data.length !== 100) throw new Error(`expected 100 entries, got ${page.data.length}`);
  return performance.now() - t;
}

/** Time listing everything (pages of 1000), in ms; checks every entry was seen once. */
async function timeFull(base: string, expected: number): Promise<number> {
  const t = performance.now();
  let seen = 0;
  let cursor: string | null = null;
  do {
    const page = await getJson(`${base}/v1/dlq?limit=1000${cursor ? `&cursor=${cursor}` : ""}`);
    seen += page.data.length;
    cursor = page.next_cursor;
  } while (cursor);
  if (seen !== expected) throw new Error(`full listing saw ${seen} entries, expected ${expected}`);
  return performance.now() - t;
}

async function main(): Promise<void> {
  const prefix = `bench${randomBytes(4).toString("hex")}`;
  const config = configSchema().parse({
    redis: { url: REDIS_URL, prefix },
    http: { port: 0, host: "127.0.0.1" },
    admin: { tokens: [TOKEN] },
    sinks: { out: { type: "log" } },
    sources: { bench: { verify: { type: "none" }, sinks: ["out"], allow_non_durable: true } },
  });
  // Auto-pipelining batches the concurrent adds into few socket writes.
  const redis = new Redis(REDIS_URL, { enableAutoPipelining: true });
  const gateway = await startGateway(config, {
    roles: ["api"],
    logger: silentLogger(),
    metrics: new Metrics(),
  });
  const base = `http://127.0.0.1:${gateway.port}`;
  try {
    const filled = performance.now();
    progress(`filling the DLQ with ${N} dead deliveries through the ledger`);
    await fillDlq(redis, new Keys(prefix), N);
    const fillMs = performance.now() - filled;

    for (let i = 0; i < 3; i++) await timePage(base); // warm up connections and scripts
    progress(`timing ${PAGE_RUNS} pages of 100 and ${FULL_RUNS} full listing(s)`);
    const pages: number[] = [];
    for (let i = 0; i < PAGE_RUNS; i++) pages.push(await timePage(base));
    const fulls: number[] = [];
    for (let i = 0; i < FULL_RUNS; i++) fulls.push(await timeFull(base, N));

    const page = median(pages);
    const full = median(fulls);
    console.log(
      `bench:dlq  ${N.toLocaleString("en")} dead entries (filled in ${(fillMs / 1000).toFixed(1)} s through the ledger)`,
    );
    console.log(`  GET /v1/dlq?limit=100       median ${page.toFixed(2)} ms over ${PAGE_RUNS} runs`);
    console.log(
      `  list all (pages of 1000)    median ${full.toFixed(0)} ms over ${FULL_RUNS} runs (${Math.ceil(N / 1000)} pages)`,
    );
    console.log(`  ratio full / page           ${(full / page).toFixed(0)}×`);
    writeResult(flags.json, {
      script: "dlq",
      quick: flags.quick,
      entries: N,
      pageRuns: PAGE_RUNS,
      fullRuns: FULL_RUNS,
      fillMs: orNull(fillMs),
      pageMs: orNull(page),
      fullMs: orNull(full),
    } satisfies DlqResult);
  } finally {
    await gateway.stop();
    await deleteKeys(redis, prefix);
    redis.disconnect();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();

// Regressions of retention under the delivery ledger: a record lives while any delivery of it is live
// (its retention counts from the last change, not from receipt), a dead one can be replayed within
// retention of its death, and what retention releases is really trimmed (DLQ, rows, failed jobs).
// Public behaviour only (HTTP ingest, admin API, the receiver, DBSIZE), so it also runs on the old code.
import { Redis } from "ioredis";
import { afterEach, expect, it } from "vitest";
import { type DevRedis, startPrivateRedis } from "../../src/runtime/dev-redis.ts";
import { sendHook } from "../support/hooks.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";
import { type TestGateway, startTestGateway, testConfig } from "../support/test-gateway.ts";
import { admin, replayState } from "./admin-fixtures.ts";
import { dlqHookIds, sleep, waitForSink } from "./ledger-regressions-fixtures.ts";

let gw: TestGateway | undefined;
let rx: Receiver | undefined;
let privateRedis: DevRedis | undefined;
const timers: NodeJS.Timeout[] = [];
afterEach(async () => {
  for (const t of timers.splice(0)) clearTimeout(t);
  await gw?.stop();
  gw = undefined;
  await rx?.close();
  rx = undefined;
  await privateRedis?.stop();
  privateRedis = undefined;
});

/** One source `src` delivering to one http sink `out` at the receiver, with `retention_s: 5`. */
function shortRetention(rxUrl: string, dispatch: Record<string, unknown>, retentionS = 5) {
  return {
    retention_s: retentionS,
    dispatch,
    sinks: { out: { type: "http", url: `${rxUrl}/in` } },
    sources: { src: { verify: { type: "none" }, dedup_ttl_s: retentionS, sinks: ["out"] } },
  };
}

it("regression: a record expired under a live delivery (retention counted from receipt)", async () => {
  // The sink fails for 8 s; the breaker keeps the delivery waiting (no attempt spent) past the
  // 5 s retention; the probe after the sink recovered succeeds.
  rx = await startReceiver({ fallback: 503 });
  gw = await startTestGateway(
    testConfig(
      shortRetention(rx.url, {
        retry: { base_ms: 50, max_ms: 200, max_attempts: 50, max_elapsed_ms: 5000 },
        breaker: { failures: 3, open_ms: 3000, max_open_ms: 6000 },
      }),
    ),
  );
  const sentAt = Date.now();
  const id = await sendHook(gw, "src", '{"retention":"live"}');
  timers.push(setTimeout(() => rx?.setFallback(200), 8000));

  const view = await waitForSink(gw, id, "out", "delivered", 14_000);
  const deliveredAfter = Date.now() - sentAt;
  // Three failures open the breaker, its probe at ~3 s fails, the one at ~9 s succeeds.
  expect({ requests: rx.requests.length, attempts: view.attempts }).toEqual({ requests: 5, attempts: 5 });
  expect(rx.requests.at(-1)!.receivedAt - sentAt).toBeGreaterThan(8000);
  expect(deliveredAfter).toBeGreaterThan(5000); // well past the retention counted from receipt
}, 30_000);

it("regression: a hook dead at ~4 s is gone when replayed at ~7 s (retention counted from receipt)", async () => {
  rx = await startReceiver({ fallback: 503 });
  gw = await startTestGateway(
    testConfig(
      shortRetention(rx.url, {
        retry: { base_ms: 300, max_ms: 600, max_attempts: 50, max_elapsed_ms: 5000 },
        breaker: { failures: 1000, open_ms: 1000, max_open_ms: 1000 },
      }),
    ),
  );
  const sentAt = Date.now();
  const id = await sendHook(gw, "src", '{"retention":"dead"}');
  timers.push(setTimeout(() => rx?.setFallback(410), 4000));
  const dead = await waitForSink(gw, id, "out", "dead", 7000);
  expect(dead.last_error).toContain("410");
  const diedAfter = Date.now() - sentAt;
  expect(diedAfter).toBeGreaterThan(4000);

  await sleep(Math.max(0, sentAt + 7000 - Date.now()));
  rx.setFallback(200);
  const sentBefore = rx.requests.length;
  const created = await admin(gw, "POST", "/v1/replays", { body: { filter: { source: "src" } } });
  expect(created.status).toBe(202);
  const replay = await replayState(gw, created.json.id as string, "done", 5000);
  expect(replay).toMatchObject({ matched: 1, moved: 1, failed: 0 });

  const delivered = await waitForSink(gw, id, "out", "delivered", 5000);
  expect(delivered).toMatchObject({ replay_id: created.json.id, attempts: 1 });
  expect(rx.requests.length).toBe(sentBefore + 1);
  expect(rx.requests.at(-1)!.headers["x-switchyard-replay-id"]).toBe(created.json.id);
  expect(await dlqHookIds(gw)).toEqual([]);
}, 30_000);

interface Footprint {
  /** DBSIZE. */
  readonly keys: number;
  /** INFO memory's used_memory (the whole server: keys, Lua script cache, client buffers, ...). */
  readonly usedMemory: number;
  /** Keys of the recovery scheduler's finished ticks (BullMQ keeps the last 100 for Bull Board). */
  readonly ticks: number;
  /** MEMORY USAGE summed over every key, and the parts of it that are bounded bookkeeping. */
  readonly keyBytes: number;
  readonly streamBytes: number;
  readonly tickBytes: number;
}

/** A finished or due recovery tick: `…:maintenance:repeat:<scheduler id>:<time>`. */
const TICK_JOB = /:maintenance:repeat:[^:]+:\d+$/;

async function footprint(redis: Redis): Promise<Footprint> {
  const info = await redis.info("memory");
  const keys = await scanAll(redis, "*");
  let keyBytes = 0;
  let streamBytes = 0;
  let tickBytes = 0;
  let ticks = 0;
  for (const key of keys) {
    const bytes = Number(await redis.call("MEMORY", "USAGE", key, "SAMPLES", "0"));
    keyBytes += bytes;
    // BullMQ's event streams are capped (a busy queue fills its cap and stays there).
    if (key.endsWith(":events")) streamBytes += bytes;
    if (TICK_JOB.test(key)) {
      ticks++;
      tickBytes += bytes;
    }
  }
  return {
    keys: await redis.dbsize(),
    usedMemory: Number(/^used_memory:(\d+)/m.exec(info)?.[1]),
    ticks,
    keyBytes,
    streamBytes,
    tickBytes,
  };
}

async function scanAll(redis: Redis, pattern: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", pattern, "COUNT", 1000);
    cursor = next;
    found.push(...keys);
  } while (cursor !== "0");
  return found;
}

/** Keys and their bytes beyond the bounded bookkeeping: what per-hook state would show up in. */
const keysBeyondTicks = (f: Footprint, start: Footprint): number => f.keys - (f.ticks - start.ticks);
const otherKeyBytes = (f: Footprint): number => f.keyBytes - f.streamBytes - f.tickBytes;

it("regression: nothing is trimmed (dead hooks keep their keys past retention)", async () => {
  privateRedis = await startPrivateRedis();
  const redis = new Redis(privateRedis.url);
  rx = await startReceiver({ fallback: 410 });
  const config = testConfig(
    {
      ...shortRetention(
        rx.url,
        { concurrency: 32, retry: { base_ms: 20, max_ms: 200, max_attempts: 5, max_elapsed_ms: 3000 } },
        3,
      ),
      recovery: { interval_ms: 200 },
    },
    privateRedis.url,
  );
  try {
    gw = await startTestGateway(config, { recovery: { intervalMs: 200 } });
    await sleep(1000); // up and idle: queues and the recovery scheduler have made their keys
    const start = await footprint(redis);

    // 300 hooks the sink refuses for good (410): each dies on its one attempt. Deaths spread over a
    // few seconds on a busy machine, so the first may be trimmed before the last dies: count answers.
    for (let i = 0; i < 300; i += 50) {
      const batch = Array.from({ length: 50 }, (_, j) => sendHook(gw!, "src", JSON.stringify({ n: i + j })));
      await Promise.all(batch);
    }
    await rx.waitForRequests(300, 20_000);
    await sleep(200);
    const peak = await footprint(redis);

    // Past retention (3 s from the last death) and a few recovery ticks; then give trims a while.
    await sleep(3000 + 1000);
    const deadline = Date.now() + 5000;
    let after = await footprint(redis);
    let listed = await dlqHookIds(gw);
    while (Date.now() < deadline && (listed.length > 0 || keysBeyondTicks(after, start) > start.keys + 20)) {
      await sleep(250);
      after = await footprint(redis);
      listed = await dlqHookIds(gw);
    }
    const row = (what: string, f: (x: Footprint) => number): string =>
      `  ${what.padEnd(44)} start ${f(start)}, peak ${f(peak)}, after ${f(after)} ` +
      `(after − start ${f(after) - f(start)})\n`;
    console.log(
      `[ledger-regressions] 300 dead hooks, retention_s 3:\n` +
        row("DBSIZE", (f) => f.keys) +
        row("  of which recovery tick jobs", (f) => f.ticks) +
        row("used_memory", (f) => f.usedMemory) +
        row("MEMORY USAGE of all keys", (f) => f.keyBytes) +
        row("  of which BullMQ event streams (capped)", (f) => f.streamBytes) +
        row("  of which recovery tick jobs", (f) => f.tickBytes) +
        row("  the rest", otherKeyBytes),
    );
    expect(listed).toEqual([]);
    // The recovery scheduler's finished ticks (at most 100, kept for Bull Board) are not per-hook state.
    expect(keysBeyondTicks(after, start)).toBeLessThanOrEqual(start.keys + 20);
    expect(otherKeyBytes(after) - otherKeyBytes(start)).toBeLessThan(16 * 1024);
    // The server as a whole: besides the bounded bookkeeping above, Redis's own caches (Lua scripts
    // loaded on first use, client buffers) grow by a constant.
    expect(after.usedMemory - start.usedMemory).toBeLessThan(512 * 1024);
  } finally {
    redis.disconnect();
  }
}, 40_000);

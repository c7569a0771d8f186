// Regressions of how an attempt's outcome is owned under the delivery ledger: one attempt budget (the
// current config's, read against the row; not one BullMQ fixed when the job was added), an outcome
// recorded once Redis is back rather than lost in a blip (so a delivered hook is not sent again and a
// dead one is dead-lettered), and recovery that re-creates the job of any live delivery, not only of
// hooks still pending enqueue. Public behaviour only (HTTP ingest, admin API, the receiver, a private
// redis-server, one queue entry removed: a BullMQ job as Bull Board does it, or a ledger queue's entry),
// so it also runs on the old code.
import { afterEach, expect, it } from "vitest";
import { sinkDeliveryId } from "../../src/domain/hook.ts";
import type { HookId } from "../../src/domain/ids.ts";
import { sendHook } from "../support/hooks.ts";
import { isQueued } from "../support/queued.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";
import { type TestGateway, deletePrefix, startTestGateway, testConfig } from "../support/test-gateway.ts";
import {
  PersistentRedis,
  dlqHookIds,
  onPrefixOf,
  receiverQuiet,
  requestsPerHook,
  sinkView,
  sleep,
  unqueueDelivery,
  waitForSink,
} from "./ledger-regressions-fixtures.ts";

let gw: TestGateway | undefined;
let rx: Receiver | undefined;
let aof: PersistentRedis | undefined;
const others: TestGateway[] = [];
afterEach(async () => {
  for (const o of others.splice(0)) {
    await o.gateway.stop().catch(() => undefined);
    await deletePrefix(o.redis, o.config.redis.prefix).catch(() => undefined);
    o.redis.disconnect();
  }
  await gw?.stop();
  gw = undefined;
  await rx?.close();
  rx = undefined;
  await aof?.stop();
  aof = undefined;
});

const sources = { src: { verify: { type: "none" }, sinks: ["out"] } };
const sinkAt = (r: Receiver, extra: Record<string, unknown> = {}) => ({
  out: { type: "http", url: `${r.url}/in`, ...extra },
});
/** A breaker that never opens: every attempt reaches the sink. */
const noBreaker = { failures: 1000, open_ms: 1000, max_open_ms: 1000 };

it("regression: the attempt budget has two owners (BullMQ's job attempts, fixed at ingest)", async () => {
  rx = await startReceiver({ fallback: 503 });
  const retry = { base_ms: 20, max_ms: 50, max_elapsed_ms: 60_000 };
  // An api-only process accepts the hooks under max_attempts 2 ...
  const web = testConfig({
    dispatch: { retry: { ...retry, max_attempts: 2 }, breaker: noBreaker },
    sinks: sinkAt(rx),
    sources,
  });
  const api = await startTestGateway(web, { roles: ["api"] });
  others.push(api);
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) ids.push(await sendHook(api, "src", JSON.stringify({ budget: i })));
  await api.gateway.stop(); // its keys stay: the next process of the deployment takes over

  // ... and a worker process of the same deployment runs them under max_attempts 6.
  const worker = onPrefixOf(
    testConfig({
      dispatch: { retry: { ...retry, max_attempts: 6 }, breaker: noBreaker },
      sinks: sinkAt(rx),
      sources,
    }),
    web,
  );
  gw = await startTestGateway(worker, { roles: ["api", "dispatch"] });
  await rx.waitForRequests(5, 10_000);
  await receiverQuiet(rx, 1500, 15_000);

  // One comparison, so a failure shows requests, states and the DLQ together.
  const deliveries = await Promise.all(ids.map((id) => sinkView(gw!, id, "out")));
  expect({
    requests: requestsPerHook(rx),
    deliveries: Object.fromEntries(
      ids.map((id, i) => [id, { state: deliveries[i]?.state, attempts: deliveries[i]?.attempts }]),
    ),
    dlq: await dlqHookIds(gw),
  }).toEqual({
    requests: Object.fromEntries(ids.map((id) => [id, 6])),
    deliveries: Object.fromEntries(ids.map((id) => [id, { state: "dead", attempts: 6 }])),
    dlq: [...ids].sort(),
  });
}, 30_000);

/**
 * A gateway (api + dispatch) on a private fsync-always Redis whose one attempt is answered 1500 ms
 * after the request: Redis is SIGKILLed 1000 ms into the wait and started again (same port, same AOF)
 * 900 ms later, so the answer arrives while Redis is away and its outcome is recorded into the blip.
 */
async function attemptAcrossABlip(answer: number, maxAttempts: number): Promise<string> {
  aof = await PersistentRedis.start();
  rx = await startReceiver({ script: [{ status: answer, delayMs: 1500 }], fallback: answer });
  gw = await startTestGateway(
    testConfig(
      {
        dispatch: {
          lock_ms: 5000, // the blip must not also cost the BullMQ lock
          attempt_timeout_ms: 10_000,
          retry: { base_ms: 20, max_ms: 200, max_attempts: maxAttempts, max_elapsed_ms: 60_000 },
          breaker: noBreaker,
        },
        sinks: sinkAt(rx, { timeout_ms: 10_000 }),
        sources,
      },
      aof.url,
    ),
    { roles: ["api", "dispatch"] },
  );
  gw.redis.on("error", () => undefined); // the test's own connection sees the blip too
  const id = await sendHook(gw, "src", JSON.stringify({ blip: answer }));
  const [sent] = await rx.waitForRequests(1, 10_000);
  await sleep(Math.max(0, sent!.receivedAt + 1000 - Date.now()));
  await aof.kill();
  await sleep(900);
  await aof.restart();
  return id;
}

it("regression: a successful send whose state write fails in a Redis blip is sent again", async () => {
  const id = await attemptAcrossABlip(200, 5);
  const view = await waitForSink(gw!, id, "out", "delivered", 15_000);
  await receiverQuiet(rx!, 1500, 5000);
  expect({ requests: rx!.requests.length, state: view.state, attempts: view.attempts }).toEqual({
    requests: 1,
    state: "delivered",
    attempts: 1,
  });
}, 30_000);

it("regression: a last failed attempt whose state write fails in a Redis blip leaves no DLQ entry", async () => {
  const id = await attemptAcrossABlip(503, 1);
  // Dead, or given up on: the old code's write failed, BullMQ failed the job, nothing changes after.
  await waitForSink(gw!, id, "out", "dead", 8000).catch(() => undefined);
  const view = await sinkView(gw!, id, "out");
  expect({
    requests: rx!.requests.length,
    state: view?.state,
    attempts: view?.attempts,
    dlq: await dlqHookIds(gw!),
  }).toEqual({ requests: 1, state: "dead", attempts: 1, dlq: [id] });
}, 30_000);

it("regression: recovery only sees hooks still pending enqueue (a removed job is never re-created)", async () => {
  rx = await startReceiver({ fallback: 503 });
  const config = testConfig({
    recovery: { interval_ms: 200, stale_after_ms: 500 },
    dispatch: {
      retry: { base_ms: 3000, max_ms: 3000, max_attempts: 10, max_elapsed_ms: 60_000 },
      breaker: noBreaker,
    },
    sinks: sinkAt(rx),
    sources,
  });
  // The new code reads the stale horizon from config; the old code's recovery took it as an option.
  const recovery = { intervalMs: 200, staleAfterMs: 500 };
  gw = await startTestGateway(config, { recovery });
  const id = await sendHook(gw, "src", '{"removed":"by hand"}');
  await waitForSink(gw, id, "out", "retrying", 10_000);

  // Take it off its queue: its job removed as Bull Board's "remove" does (retrying while it is active),
  // or its ledger queue entry gone. Only the row is left, and recovery must queue it again.
  await unqueueDelivery(gw, id, "out", 10_000);
  expect(await isQueued(gw, { kind: "sink", name: "out" }, sinkDeliveryId(id as HookId, "out"))).toBe(false);
  const sentBefore = rx.requests.length;
  expect((await waitForSink(gw, id, "out", "retrying", 1000)).attempts).toBe(sentBefore);

  rx.setFallback(200);
  const view = await waitForSink(gw, id, "out", "delivered", 10_000);
  expect(rx.requests).toHaveLength(sentBefore + 1);
  expect(view.attempts).toBe(sentBefore + 1);
}, 30_000);

// The ledger engine end to end (`dispatch.engine: ledger`): hooks and events are queued on ledger
// queues by the scripts that create their rows, delivered by ledger queue workers, retried through the
// queue's `later` set, held while a sink's breaker is open, and taken back by recovery when their
// entry is lost. No BullMQ key is written for a delivery.
import { afterEach, describe, expect, it } from "vitest";
import type { Config } from "../../src/config/schema.ts";
import { sinkDeliveryId } from "../../src/domain/hook.ts";
import type { HookId } from "../../src/domain/ids.ts";
import { LedgerQueues } from "../../src/queue/ledger/ledger-queues.ts";
import { QueuePlan } from "../../src/queue/queue-plan.ts";
import { metricValue, sendHook, waitForState } from "../support/hooks.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";
import { createEndpoint, publish } from "../support/outbound.ts";
import { type TestGateway, eventually, startTestGateway, testConfig } from "../support/test-gateway.ts";

const open: { stop(): Promise<void> }[] = [];
const receivers: Receiver[] = [];
afterEach(async () => {
  for (const gw of open.splice(0).reverse()) await gw.stop();
  await Promise.all(receivers.splice(0).map((rx) => rx.close()));
});

async function receiver(script: (number | "hang")[] = [], fallback = 200): Promise<Receiver> {
  const rx = await startReceiver({ script, fallback });
  receivers.push(rx);
  return rx;
}

function ledgerConfig(rx: Receiver, extra: Record<string, unknown> = {}): Config {
  return testConfig({
    dispatch: { engine: "ledger" },
    sinks: { web: { type: "http", url: `${rx.url}/in` } },
    sources: { demo: { verify: { type: "none" }, sinks: ["web"] } },
    ...extra,
  });
}

async function gateway(config: Config, roles?: ("api" | "dispatch" | "recovery")[]): Promise<TestGateway> {
  const gw = await startTestGateway(config, roles ? { roles } : {});
  open.push(gw);
  return gw;
}

/** The ledger queues of a gateway's config, read on the test's own connection. */
function queuesOf(gw: TestGateway): LedgerQueues {
  const { config } = gw;
  return new LedgerQueues(gw.redis, gw.gateway.keys, QueuePlan.of(config), config.dispatch.lock_ms);
}

/** BullMQ keys of delivery queues (the maintenance and replays queues stay BullMQ's). */
async function bullmqKeys(gw: TestGateway): Promise<string[]> {
  const keys = await gw.redis.keys(`{${gw.config.redis.prefix}*`);
  return keys.filter((k) => /:(sink-web|outbound):(wait|meta|id|events|marker|delayed|active)$/.test(k));
}

describe("dispatch.engine: ledger", () => {
  it("delivers hooks through a ledger queue and writes no BullMQ key for them", async () => {
    const rx = await receiver();
    const gw = await gateway(ledgerConfig(rx));
    const ids = await Promise.all(
      Array.from({ length: 20 }, (_, i) => sendHook(gw, "demo", JSON.stringify({ n: i }))),
    );
    await rx.waitForRequests(20);
    for (const id of ids) await waitForState(gw, id, "web", "delivered");
    expect(await queuesOf(gw).counts()).toEqual({
      "sink-web": { wait: 0, delayed: 0 },
      outbound: { wait: 0, delayed: 0 },
    });
    expect(await bullmqKeys(gw)).toEqual([]);
  });

  it("retries a failed attempt from the queue's later set", async () => {
    const rx = await receiver([500, 503]);
    const gw = await gateway(ledgerConfig(rx));
    const id = await sendHook(gw, "demo", "{}");
    const delivered = await waitForState(gw, id, "web", "delivered");
    expect(delivered.attempts).toBe(3);
    expect(rx.requests).toHaveLength(3);
  });

  it("delivers a published event to its endpoint", async () => {
    const rx = await receiver();
    const gw = await gateway(ledgerConfig(rx, { outbound: { allow_private: true }, sinks: {}, sources: {} }));
    const ep = await createEndpoint(gw, { url: `${rx.url}/ep`, event_types: ["order.*"] });
    await publish(gw, { id: "ev-1", type: "order.paid", payload: { a: 1 } });
    const [req] = await rx.waitForRequests(1);
    expect(req?.path).toBe("/ep");
    expect(JSON.parse(req?.body.toString() ?? "{}")).toMatchObject({ type: "order.paid" });
    expect(req?.headers["webhook-id"]).toBeTruthy();
    expect(ep.id).toMatch(/^ep_/);
  });

  it("pops nothing while the sink's breaker is open, then delivers everything", async () => {
    const rx = await receiver([], 500);
    const config = ledgerConfig(rx, {
      dispatch: {
        engine: "ledger",
        concurrency: 2,
        retry: { base_ms: 20, max_ms: 200, max_attempts: 50, max_elapsed_ms: 60_000 },
        breaker: { failures: 2, open_ms: 1500, max_open_ms: 1500 },
      },
    });
    const gw = await gateway(config);
    const first = await sendHook(gw, "demo", JSON.stringify({ n: "first" }));
    await eventually(async () => (await metricValue(gw, "switchyard_breaker_state", { sink: "web" })) === 2);
    const during = await Promise.all(
      Array.from({ length: 10 }, (_, n) => sendHook(gw, "demo", JSON.stringify({ n }))),
    );
    // Open: the new hooks wait on the ready list, unpopped and unattempted.
    await new Promise((r) => setTimeout(r, 300));
    expect((await queuesOf(gw).counts())["sink-web"]?.wait).toBe(10);
    rx.setFallback(200);
    for (const id of [first, ...during]) await waitForState(gw, id, "web", "delivered", 15_000);
  });

  it("a row whose queue entry was lost is queued again by recovery and delivered", async () => {
    const rx = await receiver();
    const config = ledgerConfig(rx, { recovery: { interval_ms: 200, stale_after_ms: 500 } });
    const api = await gateway(config, ["api"]);
    const id = await sendHook(api, "demo", "{}");
    const queues = queuesOf(api);
    expect((await queues.counts())["sink-web"]?.wait).toBe(1);
    // Lose the entry, as a crash of Redis between writes could: the row stays in its watch set.
    for (const key of queues.queue("sink-web").keys) await api.redis.del(key);
    await gateway(config, ["dispatch", "recovery"]);
    await waitForState(api, id, "web", "delivered");
    expect(sinkDeliveryId(id as HookId, "web")).toMatch(/^dl_/);
  });
});

// The operational outbox and drainer on real Redis: the Lua side makes the same event ids and times as
// the TypeScript side; two drainers draining the same entry at once send it once, and an entry published
// but left in its outbox (a crash before its removal) is published again as a duplicate, never sent
// twice; POST /v1/events refuses the reserved namespace; with operational.enabled off no fact is written.
import { expect, it } from "vitest";
import { operationalEventId } from "../../src/domain/operational-events.ts";
import { silentLogger } from "../../src/observability/logger.ts";
import { Metrics } from "../../src/observability/metrics.ts";
import { createOperationalEvents } from "../../src/operational/operational-events.ts";
import { createDeliveryEngine } from "../../src/queue/delivery-engine.ts";
import { DeliveryStore, ledgerOptions } from "../../src/store/delivery-store.ts";
import { EndpointStore } from "../../src/store/endpoint-store.ts";
import { EventStore } from "../../src/store/event-store.ts";
import { spliceIncludes } from "../../src/store/lua-script.ts";
import { OpsOutbox } from "../../src/store/ops-outbox.ts";
import { admin } from "./admin-fixtures.ts";
import { opsEndpoint } from "../support/operational.ts";
import {
  createEndpoint,
  gateway,
  outboundConfig,
  publish,
  receiver,
  useOutboundTeardown,
} from "../support/outbound.ts";
import type { TestGateway } from "../support/test-gateway.ts";
import { eventually } from "../support/test-gateway.ts";

useOutboundTeardown();

it("the Lua include makes the TypeScript side's event ids and ISO times", async () => {
  const gw = await gateway(outboundConfig());
  const script = `${spliceIncludes("-- @include store/lua/ops/append-fact.lua")}
local out = {}
for i = 1, #ARGV do out[i] = isoTime(ARGV[i]) end
out[#out + 1] = opsEventId('switchyard.delivery.failing', 'dl_x', 4)
out[#out + 1] = opsEventId('switchyard.endpoint.created', 'ep_y')
return out`;
  // The epoch, leap days, month and year ends, milliseconds at both ends, and years ahead.
  const instants = [
    0,
    951_782_400_000,
    951_868_799_999,
    1_709_164_800_123,
    1_735_689_599_999,
    1_765_000_000_001,
    4_107_542_399_999,
    Date.now(),
  ];
  const reply = (await gw.redis.eval(script, 0, ...instants)) as string[];
  expect(reply.slice(0, instants.length)).toEqual(instants.map((ms) => new Date(ms).toISOString()));
  expect(reply.slice(instants.length)).toEqual([
    operationalEventId("switchyard.delivery.failing", "dl_x", 4),
    operationalEventId("switchyard.endpoint.created", "ep_y"),
  ]);
});

/**
 * A second process's drainer on `gw`'s deployment: its own stores, queues and drainer, built as a
 * gateway builds them (src/runtime/gateway.ts), on the engine its config names, so what it publishes
 * is queued where that engine's workers look.
 */
function otherDrainer(gw: TestGateway) {
  const { config } = gw;
  const keys = gw.gateway.keys;
  const outbox = new OpsOutbox(gw.redis, keys, { retentionS: config.retention_s });
  const ledger = new DeliveryStore(gw.redis, keys, ledgerOptions(config));
  const endpoints = new EndpointStore(gw.redis, keys);
  const { queues, queuesInScript } = createDeliveryEngine(gw.redis, keys, config, silentLogger());
  const metrics = new Metrics();
  const ops = createOperationalEvents({
    config,
    outbox,
    redis: gw.redis,
    metrics,
    logger: silentLogger(),
    endpoints,
    publish: {
      events: new EventStore(gw.redis, keys, ledger, queuesInScript ? queues : undefined),
      endpoints,
      jobs: queues,
      metrics,
      staleAfterMs: config.recovery.stale_after_ms,
      retentionS: config.retention_s,
      maxPayloadBytes: config.http.max_body_bytes,
      pageSize: config.outbound.fanout_page_size,
    },
  });
  return { ...ops, metrics, close: () => queues.close() };
}

it("two drainers draining one entry at once send it once; a published entry left behind is a duplicate", async () => {
  // The gateway's own recovery tick stays out of the way.
  const gw = await gateway(
    outboundConfig({}, { recovery: { interval_ms: 600_000, stale_after_ms: 60_000 } }),
  );
  const ops = await opsEndpoint(gw, { patterns: ["switchyard.delivery.*"] });
  const keys = gw.gateway.keys;
  const outboxKey = keys.opsOutbox(keys.bucketTag(3));
  const id = operationalEventId("switchyard.delivery.exhausted", "dl_test", 1);
  const entry = JSON.stringify({
    type: "switchyard.delivery.exhausted",
    at: Date.now(),
    budget: "endpoint:ep_test",
    data: { delivery_id: "dl_test", attempts: 3 },
  });
  await gw.redis.hset(outboxKey, id, entry);
  await gw.redis.sadd(keys.opsDirty, outboxKey);

  const a = otherDrainer(gw);
  const b = otherDrainer(gw);
  try {
    const [ra, rb] = await Promise.all([a.drainer.drainDirty(), b.drainer.drainDirty()]);
    expect(ra.failed + rb.failed).toBe(0);
    await ops.rx.waitForRequests(1);
    expect(await gw.redis.hlen(outboxKey)).toBe(0);
    expect(await gw.redis.sismember(keys.opsDirty, outboxKey)).toBe(0);

    // A drainer that published it and died before removing it: the entry is back, and is drained again.
    await gw.redis.hset(outboxKey, id, entry);
    await gw.redis.sadd(keys.opsDirty, outboxKey);
    const again = await b.drainer.drainDirty();
    expect(again.published).toBe(1);
    expect(await gw.redis.hlen(outboxKey)).toBe(0);
    await new Promise((r) => setTimeout(r, 500));
    expect(ops.events().map((e) => e.id)).toEqual([id]);
    expect(ops.events()[0]?.data).toEqual({ delivery_id: "dl_test", attempts: 3 });
  } finally {
    await a.close();
    await b.close();
  }
});

it("POST /v1/events refuses a switchyard.* type with a clear 400; an endpoint's test event still goes", async () => {
  const gw = await gateway(outboundConfig());
  const res = await admin(gw, "POST", "/v1/events", {
    body: { type: "switchyard.delivery.failing", payload: { forged: true } },
  });
  expect(res.status).toBe(400);
  expect(res.json.error).toEqual({
    code: "invalid_request",
    message:
      "type: switchyard.* types are reserved for the gateway's own operational events (only Switchyard publishes them); publish under another name",
  });
  const rx = await receiver();
  const ep = await createEndpoint(gw, { url: `${rx.url}/t`, event_types: ["*"] });
  expect((await admin(gw, "POST", `/v1/endpoints/${ep.id}/test-event`, { body: {} })).status).toBe(202);
  await rx.waitForRequests(1);
});

it("with operational.enabled off, a dying delivery records no fact", async () => {
  const gw = await gateway(
    outboundConfig(
      { retry: { base_ms: 10, max_ms: 20, max_attempts: 1, max_elapsed_ms: 10_000 } },
      { operational: { enabled: false } },
    ),
  );
  const down = await receiver({ fallback: 500 });
  await opsEndpoint(gw);
  await createEndpoint(gw, { url: `${down.url}/x`, event_types: ["order.*"] });
  await publish(gw, { id: "off-1", type: "order.paid", payload: 1 });
  await eventually(
    async () => (await admin(gw, "GET", "/v1/events/off-1/deliveries")).json.data[0]?.state === "dead",
    10_000,
    "the delivery to die",
  );
  const keys = gw.gateway.keys;
  const sizes = await Promise.all(keys.buckets.map((b) => gw.redis.hlen(keys.opsOutbox(keys.bucketTag(b)))));
  expect(sizes.reduce((x, y) => x + y, 0)).toBe(0);
  expect(await gw.redis.exists(keys.opsDirty)).toBe(0);
});

it("regression: a sweep asked for while a drain of the dirty outboxes runs is not lost (it runs next)", async () => {
  const gw = await gateway(
    outboundConfig({}, { recovery: { interval_ms: 600_000, stale_after_ms: 60_000 } }),
  );
  const ops = await opsEndpoint(gw);
  const keys = gw.gateway.keys;
  // An outbox nobody marked dirty: only a sweep reads it. (The ops endpoint's own creation is a fact in
  // it too: let that one be published first, so the sweep meets only the unmarked entry.)
  const outboxKey = keys.opsOutbox(keys.endpointBase);
  await ops.rx.waitForRequests(1);
  await eventually(async () => (await gw.redis.hlen(outboxKey)) === 0 || undefined, 5_000, "own fact out");
  const id = operationalEventId("switchyard.endpoint.created", "ep_unmarked");
  await gw.redis.hset(
    outboxKey,
    id,
    JSON.stringify({
      type: "switchyard.endpoint.created",
      at: Date.now(),
      data: { endpoint_id: "ep_unmarked" },
    }),
  );
  const d = otherDrainer(gw);
  try {
    const draining = d.drainer.drainDirty();
    const swept = await d.drainer.sweep();
    await draining;
    expect(swept.published).toBe(1);
    expect(await gw.redis.hlen(outboxKey)).toBe(0);
    await ops.rx.waitForRequests(2);
    expect(ops.events().filter((e) => e.id === id)).toHaveLength(1);
  } finally {
    await d.close();
  }
});

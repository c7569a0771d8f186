// A fanout completes whatever happens to the process publishing it. A publish without an `id` (its
// caller never learns the generated id, so it cannot publish again) that dies between pages leaves its
// unfinished fanout marked on the event; the recovery tick finds it once recovery.stale_after_ms has
// passed and writes the remaining pages with the same idempotent script, so every endpoint that
// matched at publish time, and still matches, gets its row and delivery, once. Endpoints deleted since
// get nothing, and so do endpoints created since (they did not match the event when it was published).
import { afterEach, expect, it } from "vitest";
import type { EventRecord } from "../../src/store/event-store.ts";
import { publishEvent } from "../../src/fanout/publish-event.ts";
import { Metrics } from "../../src/observability/metrics.ts";
import { DeliveryQueues } from "../../src/queue/delivery-queues.ts";
import { QueuePlan } from "../../src/queue/queue-plan.ts";
import { DeliveryStore, ledgerOptions } from "../../src/store/delivery-store.ts";
import { EndpointStore } from "../../src/store/endpoint-store.ts";
import { EventStore } from "../../src/store/event-store.ts";
import { deliveriesOf, gateway, outboundConfig, receiver, useOutboundTeardown } from "../support/outbound.ts";
import { eventually, scratchRedis } from "../support/test-gateway.ts";
import { admin } from "../integration/admin-fixtures.ts";

useOutboundTeardown();
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

it("a publish without an id that dies between pages still ends with every matching endpoint delivered, once", async () => {
  const rx = await receiver({ fallback: 200 });
  const config = outboundConfig(
    { fanout_page_size: 3, timeout_ms: 2000 },
    { recovery: { stale_after_ms: 500 } },
  );
  const { keys, redis, cleanup } = scratchRedis(config);
  const queues = new DeliveryQueues(redis, keys, new QueuePlan({}, false));
  cleanups.push(async () => {
    await queues.close();
    await cleanup();
  });
  const endpoints = new EndpointStore(redis, keys);
  const made = [];
  for (let i = 0; i < 8; i++)
    made.push(await endpoints.create({ url: `${rx.url}/ep${i}`, event_types: ["order.*"] }));
  const ledger = new DeliveryStore(redis, keys, ledgerOptions(config));
  const events = new EventStore(redis, keys, ledger);

  // The process dies once its first page (3 endpoints) is written and enqueued.
  let published: EventRecord | undefined;
  let pages = 0;
  const dying = {
    publish: (...args: Parameters<EventStore["publish"]>) => {
      published = args[0];
      if (++pages === 2) throw new Error("the process died between pages");
      return events.publish(...args);
    },
    markEnqueueFailed: (...args: Parameters<EventStore["markEnqueueFailed"]>) =>
      events.markEnqueueFailed(...args),
    resolveRef: (...args: Parameters<EventStore["resolveRef"]>) => events.resolveRef(...args),
  };
  const deps = {
    events: dying,
    endpoints,
    jobs: queues,
    metrics: new Metrics(),
    staleAfterMs: config.recovery.stale_after_ms,
    retentionS: config.retention_s,
    pageSize: config.outbound.fanout_page_size,
    maxPayloadBytes: config.http.max_body_bytes,
  };
  await expect(publishEvent(deps, { type: "order.paid", payload: { order: 9 } }, undefined)).rejects.toThrow(
    "between pages",
  );
  const eventId = published!.id;
  expect((await events.rows(undefined, eventId)).length).toBe(3);

  // Between the crash and recovery: one endpoint of a page never written is deleted, one is created.
  const deleted = made[7]!;
  expect(await endpoints.delete(deleted.id)).toBe(true);
  const late = await endpoints.create({ url: `${rx.url}/late`, event_types: ["order.*"] });

  const gw = await gateway(config, { roles: ["api", "dispatch", "recovery"], recovery: { intervalMs: 200 } });
  const expected = made.slice(0, 7).map((e) => e.id);
  await eventually(
    async () => {
      const rows = await deliveriesOf(gw, eventId);
      return expected.every((id) => rows[id]?.state === "delivered") ? rows : undefined;
    },
    20_000,
    "every endpoint that matched at publish time (and still exists) delivered",
  );
  await new Promise((r) => setTimeout(r, 1000)); // a few more ticks: nothing is written twice
  const rows = await deliveriesOf(gw, eventId);
  expect(Object.keys(rows).sort()).toEqual([...expected].sort());
  expect(rows[late.id]).toBeUndefined();
  const paths = rx.requests.map((r) => r.path).sort();
  expect(paths).toEqual(
    made
      .slice(0, 7)
      .map((_, i) => `/ep${i}`)
      .sort(),
  );
  for (const r of Object.values(rows)) expect(r).toMatchObject({ state: "delivered", attempts: 1 });
  // The unfinished mark is gone with the fanout it marked.
  const event = await admin(gw, "GET", `/v1/events/${eventId}`);
  expect(event.status).toBe(200);
  expect(await redis.hexists(keys.event(eventId), "fo")).toBe(0);
}, 60_000);

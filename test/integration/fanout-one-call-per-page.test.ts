// Fanout writes rows and jobs as ingest does: on a single Redis with the verified BullMQ each page of a
// fanout is one script call that writes its rows and their jobs together (create-row.lua), with no
// Queue.add behind it. A row an older release left marked enqueue-failed is taken back by a re-publish
// with its job written in the same call, and a conflicting publish writes nothing on any page. The
// same call lists each row in its endpoint's delivery index (a single Redis: no index call of its own).
import { Queue } from "bullmq";
import { afterEach, expect, it, vi } from "vitest";
import type { EndpointId } from "../../src/domain/ids.ts";
import { type PublishDeps, PublishRefused, publishEvent } from "../../src/fanout/publish-event.ts";
import { Metrics } from "../../src/observability/metrics.ts";
import { OUTBOUND_QUEUE } from "../../src/queue/delivery-job.ts";
import { DeliveryQueues } from "../../src/queue/delivery-queues.ts";
import { QueuePlan } from "../../src/queue/queue-plan.ts";
import { DeliveryStore, ledgerOptions } from "../../src/store/delivery-store.ts";
import { EndpointStore } from "../../src/store/endpoint-store.ts";
import { EventStore, endpointDeliveryId } from "../../src/store/event-store.ts";
import { outboundConfig } from "../support/outbound.ts";
import { scratchRedis } from "../support/test-gateway.ts";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** `n` endpoints subscribed to `*`, and a publisher whose store writes jobs; script calls counted. */
async function setup(n: number, pageSize: number) {
  const config = outboundConfig();
  const { keys, redis, cleanup } = scratchRedis(config);
  const queues = new DeliveryQueues(redis, keys, new QueuePlan({}, false));
  const outbound = new Queue(OUTBOUND_QUEUE, { connection: redis, prefix: keys.queuePrefix(OUTBOUND_QUEUE) });
  cleanups.push(
    cleanup,
    () => queues.close(),
    () => outbound.close(),
  );
  const endpoints = new EndpointStore(redis, keys);
  const ids: EndpointId[] = [];
  for (let i = 0; i < n; i++)
    ids.push(
      (await endpoints.create({ url: `http://127.0.0.1:9/${i}`, event_types: ["*"] })).id as EndpointId,
    );
  const ledger = new DeliveryStore(redis, keys, ledgerOptions(config));
  const events = new EventStore(redis, keys, ledger, queues);
  const legacy = new EventStore(redis, keys, ledger);
  const calls = { publish: 0, enqueue: 0 };
  const deps: PublishDeps = {
    events: {
      writesJobs: events.writesJobs,
      publish: (...args) => {
        calls.publish++;
        return events.publish(...args);
      },
      markEnqueueFailed: (...args) => events.markEnqueueFailed(...args),
      resolveRef: (...args) => events.resolveRef(...args),
    },
    endpoints,
    jobs: {
      enqueue: async () => {
        calls.enqueue++;
        throw new Error("no job is added behind the script");
      },
    },
    metrics: new Metrics(),
    staleAfterMs: config.recovery.stale_after_ms,
    retentionS: config.retention_s,
    maxPayloadBytes: 1024,
    pageSize,
  };
  return { deps, events, legacy, ledger, outbound, ids, calls, redis };
}

it("writes a fanout's rows and jobs in one script call per page, with no add behind them", async () => {
  const s = await setup(7, 3);
  expect(s.events.writesJobs).toBe(true);
  const answer = await publishEvent(s.deps, { id: "ev-1", type: "order.paid", payload: { n: 1 } }, undefined);
  expect(answer.counts).toMatchObject({ created: 7, enqueue_failed: 0 });
  expect(s.calls).toEqual({ publish: 3, enqueue: 0 });
  for (const ep of s.ids) {
    const id = endpointDeliveryId("ev-1", ep);
    expect(await s.outbound.getJobState(id)).toBe("waiting");
    expect(await s.ledger.get(id)).toMatchObject({
      state: "pending",
      attempts: 0,
      fence: 0,
      source: "order.paid",
    });
  }
  // Finished: no mark left for recovery.
  expect(await s.events.unfinishedFanout("ev-1")).toBeUndefined();

  const again = await publishEvent(s.deps, { id: "ev-1", type: "order.paid", payload: { n: 1 } }, undefined);
  expect(again.counts).toMatchObject({ created: 0, duplicate: 7 });
  expect(await s.outbound.getJobCounts("waiting")).toMatchObject({ waiting: 7 });
});

it("lists each page's rows in their endpoints' delivery indexes in the page's own call", async () => {
  const s = await setup(5, 2);
  const scripts = vi.spyOn(s.redis, "evalsha");
  const answer = await publishEvent(s.deps, { id: "ev-4", type: "order.paid", payload: {} }, undefined);
  expect(answer.counts).toMatchObject({ created: 5 });
  // Three pages, three script calls: rows, jobs and index entries together.
  expect(scripts).toHaveBeenCalledTimes(3);
  scripts.mockRestore();
  for (const ep of s.ids) {
    const listed = await s.events.endpointIndex.page(s.ledger, ep, { limit: 10 });
    expect(listed.rows.map((r) => r.id)).toEqual([endpointDeliveryId("ev-4", ep)]);
  }
});

it("takes back a row an older release marked enqueue-failed, writing its job in the same call", async () => {
  const s = await setup(2, 10);
  const [kept, failed] = s.ids as [EndpointId, EndpointId];
  const record = {
    id: "ev-2",
    type: "order.paid",
    tenant: undefined,
    createdAt: Date.now(),
    payload: Buffer.from("{}"),
  };
  // The older path: rows without jobs, one job added, the other's add failed and marked.
  const old = await s.legacy.publish(record, [kept, failed], {
    staleAfterMs: 60_000,
    retentionS: 600,
    page: { kind: "last" },
  });
  expect(old).toMatchObject({ kind: "written", rows: ["created", "created"], jobsAdded: false });
  expect(await s.legacy.markEnqueueFailed(endpointDeliveryId("ev-2", failed), "queue refused")).toBe(true);
  expect(await s.outbound.getJobState(endpointDeliveryId("ev-2", failed))).toBe("unknown");

  const again = await publishEvent(s.deps, { id: "ev-2", type: "order.paid", payload: {} }, undefined);
  expect(Object.fromEntries(again.results.map((r) => [r.endpoint_id, r.status]))).toEqual({
    [kept]: "duplicate",
    [failed]: "created",
  });
  expect(s.calls.enqueue).toBe(0);
  expect(await s.outbound.getJobState(endpointDeliveryId("ev-2", failed))).toBe("waiting");
  expect(await s.ledger.get(endpointDeliveryId("ev-2", failed))).toMatchObject({
    state: "pending",
    enqueueFailed: false,
  });
});

it("writes nothing on any page when the id is another event's", async () => {
  const s = await setup(5, 2);
  await publishEvent(s.deps, { id: "ev-3", type: "order.paid", payload: {} }, undefined);
  const before = await s.outbound.getJobCounts("waiting");
  await expect(
    publishEvent(s.deps, { id: "ev-3", type: "order.refunded", payload: {} }, undefined),
  ).rejects.toThrow(PublishRefused);
  expect(await s.outbound.getJobCounts("waiting")).toEqual(before);
  expect((await s.events.rows(undefined, "ev-3")).length).toBe(5);
});

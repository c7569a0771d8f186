// An enqueue failure is one endpoint's alone and is not lost: publishing with a job port that refuses
// one endpoint's job answers `created` for the others and `enqueue_failed` for that one, and a
// gateway's recovery tick then adds the missing job, so the row is delivered. A re-publish of the same
// event takes such a row back by compare-and-set: of several concurrent re-publishers exactly one
// enqueues it. The publisher queues rows after writing them (an event store without a job layout, as
// the BullMQ engine does where its in-script job write is not verified), on the queues of the engine
// the config names: the ledger engine's publish script queues rows itself, so only this path can fail
// one endpoint's enqueue, and the same recovery must then deliver it on either engine.
import { afterEach, expect, it } from "vitest";
import type { EndpointId } from "../../src/domain/ids.ts";
import { type JobAdder, publishEvent } from "../../src/fanout/publish-event.ts";
import { silentLogger } from "../../src/observability/logger.ts";
import { Metrics } from "../../src/observability/metrics.ts";
import { OUTBOUND_QUEUE } from "../../src/queue/delivery-job.ts";
import { createDeliveryEngine } from "../../src/queue/delivery-engine.ts";
import type { DeliveryQueueing } from "../../src/queue/delivery-queueing.ts";
import { DeliveryStore, ledgerOptions } from "../../src/store/delivery-store.ts";
import { EndpointStore } from "../../src/store/endpoint-store.ts";
import { EventStore, endpointDeliveryId } from "../../src/store/event-store.ts";
import type { Config } from "../../src/config/schema.ts";
import { metricValue } from "../support/hooks.ts";
import {
  createEndpoint,
  deliveriesOf,
  gateway,
  outboundConfig,
  receiver,
  useOutboundTeardown,
} from "../support/outbound.ts";
import { queuedIds } from "../support/queued.ts";
import { eventually, scratchRedis } from "../support/test-gateway.ts";

useOutboundTeardown();
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/**
 * The publish use case over the config's Redis, queueing on the config's engine after the rows are
 * written (no job layout in the event store), with `jobs` in place of the real queues where given.
 */
function publisher(config: Config) {
  const { keys, redis, cleanup } = scratchRedis(config);
  const { queues } = createDeliveryEngine(redis, keys, config, silentLogger());
  const ledger = new DeliveryStore(redis, keys, ledgerOptions(config));
  const events = new EventStore(redis, keys, ledger);
  cleanups.push(async () => {
    await queues.close();
    await cleanup();
  });
  const deps = {
    events,
    endpoints: new EndpointStore(redis, keys),
    metrics: new Metrics(),
    staleAfterMs: config.recovery.stale_after_ms,
    retentionS: config.retention_s,
    pageSize: config.outbound.fanout_page_size,
    maxPayloadBytes: config.http.max_body_bytes,
  };
  return {
    queues,
    events,
    /** The outbound queue's counts by state (wait, delayed), on either engine. */
    outboundCounts: async () => (await queues.counts())[OUTBOUND_QUEUE],
    publish: (body: Record<string, unknown>, jobs: JobAdder = queues) =>
      publishEvent({ ...deps, jobs }, body, undefined),
  };
}

/** The real queues, except that a job of endpoint `refused` is refused. */
function refusing(queues: DeliveryQueueing, refused: string): JobAdder & { calls: number } {
  const port = {
    calls: 0,
    enqueue: async (rows: Parameters<JobAdder["enqueue"]>[0]) => {
      port.calls++;
      if (rows.some((r) => r.target.kind === "endpoint" && r.target.id === refused))
        throw new Error("injected: the queue refused the job");
      await queues.enqueue(rows);
    },
  };
  return port;
}

const statuses = (answer: { results: readonly { endpoint_id: string; status: string }[] }) =>
  Object.fromEntries(answer.results.map((r) => [r.endpoint_id, r.status]));

it("leaves the others created when one endpoint's enqueue fails, and reconcile delivers that one", async () => {
  const rxs = [await receiver(), await receiver(), await receiver()];
  // The default stale horizon (60 s): only the enqueue-failed mark can make the row due this soon.
  const config = outboundConfig({ timeout_ms: 2000 });
  const api = await gateway(config, { roles: ["api"] });
  const [a, b, c] = await Promise.all(
    rxs.map((rx) => createEndpoint(api, { url: `${rx.url}/hook`, event_types: ["order.*"] })),
  );
  const p = publisher(config);

  const answer = await p.publish(
    { id: "order-7-paid", type: "order.paid", payload: { order: 7 } },
    refusing(p.queues, b!.id),
  );
  expect(statuses(answer)).toEqual({ [a!.id]: "created", [b!.id]: "enqueue_failed", [c!.id]: "created" });
  expect(answer.results.find((r) => r.endpoint_id === b!.id)?.error).toMatch(/injected/);
  const rows = Object.fromEntries((await p.events.rows(undefined, "order-7-paid")).map((r) => [r.id, r]));
  const idOf = (ep: { id: string }) => endpointDeliveryId("order-7-paid", ep.id as EndpointId);
  expect(rows[idOf(b!)]).toMatchObject({ state: "pending", enqueueFailed: true, attempts: 0 });
  for (const ep of [a!, c!]) expect(rows[idOf(ep)]).toMatchObject({ state: "pending", enqueueFailed: false });
  // a's and c's deliveries wait on the outbound queue; b's was never queued.
  expect(await queuedIds(api, OUTBOUND_QUEUE)).toEqual([idOf(a!), idOf(c!)].sort());
  expect(await p.outboundCounts()).toMatchObject({ wait: 2, delayed: 0 });

  // Workers and a fast recovery tick: the two jobs run, and reconcile adds the third.
  const worker = await gateway(config, { roles: ["dispatch", "recovery"], recovery: { intervalMs: 200 } });
  await eventually(
    async () => Object.values(await deliveriesOf(api, "order-7-paid")).every((r) => r.state === "delivered"),
    15_000,
    "all three rows delivered",
  );
  const end = await deliveriesOf(api, "order-7-paid");
  for (const ep of [a!, b!, c!]) expect(end[ep.id]).toMatchObject({ state: "delivered", attempts: 1 });
  for (const rx of rxs) {
    expect(rx.requests).toHaveLength(1);
    expect(rx.requests[0]!.headers["webhook-id"]).toBe("order-7-paid");
  }
  expect((await p.events.rows(undefined, "order-7-paid")).every((r) => !r.enqueueFailed)).toBe(true);
  expect(await metricValue(worker, "switchyard_recovery_reenqueued_total", { sink: "outbound" })).toBe(1);
}, 40_000);

it("takes an enqueue_failed row back on re-publish by compare-and-set: one of eight concurrent re-publishers enqueues it", async () => {
  const rxs = [await receiver(), await receiver()];
  const config = outboundConfig();
  const api = await gateway(config, { roles: ["api"] });
  const [ok, failed] = await Promise.all(
    rxs.map((rx) => createEndpoint(api, { url: `${rx.url}/hook`, event_types: ["order.*"] })),
  );
  const p = publisher(config);
  const event = { id: "order-8-paid", type: "order.paid", payload: { order: 8 } };
  const first = await p.publish(event, refusing(p.queues, failed!.id));
  expect(statuses(first)).toEqual({ [ok!.id]: "created", [failed!.id]: "enqueue_failed" });

  // No worker runs: the jobs stay where the publishers put them.
  const counting = refusing(p.queues, "ep_none");
  const again = await Promise.all(Array.from({ length: 8 }, () => p.publish(event, counting)));
  const ofFailed = again.map((answer) => statuses(answer)[failed!.id]);
  expect(ofFailed.filter((s) => s === "created")).toHaveLength(1);
  expect(ofFailed.filter((s) => s === "duplicate")).toHaveLength(7);
  expect(again.every((answer) => statuses(answer)[ok!.id] === "duplicate")).toBe(true);
  expect(counting.calls).toBe(1);
  const row = (await p.events.rows(undefined, "order-8-paid")).find(
    (r) => r.target.kind === "endpoint" && r.target.id === failed!.id,
  );
  // Both deliveries wait to run now, each once.
  expect(await queuedIds(api, OUTBOUND_QUEUE)).toEqual(
    [endpointDeliveryId("order-8-paid", ok!.id as EndpointId), row!.id].sort(),
  );
  expect(await p.outboundCounts()).toMatchObject({ wait: 2, delayed: 0 });
  expect(row).toMatchObject({ state: "pending", enqueueFailed: false, attempts: 0 });

  // A re-publish after that is a duplicate everywhere, and the job delivers once.
  expect(Object.values(statuses(await p.publish(event, counting)))).toEqual(["duplicate", "duplicate"]);
  await gateway(config, { roles: ["dispatch"] });
  await Promise.all(rxs.map((rx) => rx.waitForRequests(1, 10_000)));
  await new Promise((r) => setTimeout(r, 300));
  for (const rx of rxs) expect(rx.requests).toHaveLength(1);
}, 30_000);

// A fanout is written a page of endpoints per publish script, never one script naming every endpoint
// of a tenant, and answered with counts and a bounded list. A publish cut short between pages (the
// process dies) leaves the first pages written; publishing the same id again completes the rest
// without writing the first pages twice.
import { afterEach, expect, it } from "vitest";
import type { Endpoint } from "../../src/domain/endpoint.ts";
import { MAX_RESULTS_LISTED, type PublishDeps, publishEvent } from "../../src/fanout/publish-event.ts";
import { Metrics } from "../../src/observability/metrics.ts";
import { DeliveryStore, ledgerOptions } from "../../src/store/delivery-store.ts";
import { EndpointStore } from "../../src/store/endpoint-store.ts";
import { EventStore } from "../../src/store/event-store.ts";
import { outboundConfig } from "../support/outbound.ts";
import { scratchRedis } from "../support/test-gateway.ts";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** A publisher over scratch Redis with `n` endpoints subscribed to `*`, its script calls counted. */
async function setup(n: number, pageSize: number) {
  const config = outboundConfig();
  const { keys, redis, cleanup } = scratchRedis(config);
  cleanups.push(cleanup);
  const endpoints = new EndpointStore(redis, keys);
  const made: Endpoint[] = [];
  for (let i = 0; i < n; i++)
    made.push(await endpoints.create({ url: `http://127.0.0.1:9/${i}`, event_types: ["*"], tenant: "acme" }));
  const events = new EventStore(redis, keys, new DeliveryStore(redis, keys, ledgerOptions(config)));
  const pages: number[] = [];
  let dieOnPage: number | undefined;
  const enqueued: string[] = [];
  const deps: PublishDeps = {
    events: {
      publish: (event, eps, opts) => {
        pages.push(eps.length);
        if (dieOnPage === pages.length) throw new Error("the process died between pages");
        return events.publish(event, eps, opts);
      },
      markEnqueueFailed: (id, error) => events.markEnqueueFailed(id, error),
      resolveRef: (tenant, id) => events.resolveRef(tenant, id),
    },
    endpoints,
    jobs: { enqueue: async (rows) => void enqueued.push(...rows.map((r) => r.id)) },
    metrics: new Metrics(),
    staleAfterMs: 60_000,
    retentionS: config.retention_s,
    maxPayloadBytes: 1024,
    pageSize,
  };
  return { deps, events, made, pages, enqueued, dieOn: (page: number | undefined) => (dieOnPage = page) };
}

it("a fanout over pages: no script names more than a page, and a re-publish completes one cut short", async () => {
  const s = await setup(7, 3);
  s.dieOn(2);
  const body = { id: "big-1", type: "order.paid", payload: { n: 1 } };
  await expect(publishEvent(s.deps, body, "acme")).rejects.toThrow("between pages");
  expect((await s.events.rows("acme", "big-1")).length).toBe(3); // the first page, whole

  s.dieOn(undefined);
  s.pages.length = 0;
  const again = await publishEvent(s.deps, body, "acme");
  expect(s.pages).toEqual([3, 3, 1]);
  expect(again.counts).toMatchObject({ duplicate: 3, created: 4 });
  expect((await s.events.rows("acme", "big-1")).length).toBe(7);
  expect(new Set(s.enqueued).size).toBe(7);
});

it("the publish answer counts every endpoint and lists a bounded number of them", async () => {
  const s = await setup(MAX_RESULTS_LISTED + 5, 50);
  const answer = await publishEvent(s.deps, { type: "order.paid", payload: 1 }, "acme");
  expect(s.pages).toEqual([50, 50, 5]);
  expect(answer.counts.created).toBe(MAX_RESULTS_LISTED + 5);
  expect(answer.results.length).toBe(MAX_RESULTS_LISTED);
  expect(answer.results_truncated).toBe(true);
});

// Recovery finishing fanouts whose publisher died between pages (see fanout-resume.ts): it leaves a
// fanout alone while its publisher may still be writing it, it and a publisher finishing the same
// fanout at once make each row once and enqueue each job once, and a finished fanout leaves no mark.
import { afterEach, expect, it } from "vitest";
import type { JobRef } from "../../src/fanout/write-fanout.ts";
import { type PublishDeps, publishEvent } from "../../src/fanout/publish-event.ts";
import { Metrics } from "../../src/observability/metrics.ts";
import { resumeFanouts } from "../../src/recovery/fanout-resume.ts";
import { DeliveryStore, ledgerOptions } from "../../src/store/delivery-store.ts";
import { EndpointStore } from "../../src/store/endpoint-store.ts";
import { EventStore } from "../../src/store/event-store.ts";
import { bucketFor } from "../../src/domain/ids.ts";
import { silentLogger } from "../../src/observability/logger.ts";
import { outboundConfig } from "../support/outbound.ts";
import { scratchRedis } from "../support/test-gateway.ts";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function setup(n: number) {
  const config = outboundConfig({ fanout_page_size: 2 });
  const { keys, redis, cleanup } = scratchRedis(config);
  cleanups.push(cleanup);
  const endpoints = new EndpointStore(redis, keys);
  for (let i = 0; i < n; i++)
    await endpoints.create({ url: `http://127.0.0.1:9/${i}`, event_types: ["*"], tenant: "acme" });
  const events = new EventStore(redis, keys, new DeliveryStore(redis, keys, ledgerOptions(config)));
  const enqueued: string[] = [];
  const jobs = { enqueue: async (rows: readonly JobRef[]) => void enqueued.push(...rows.map((r) => r.id)) };
  let dieOnPage: number | undefined;
  let pages = 0;
  const deps: PublishDeps = {
    events: {
      publish: (...args) => {
        if (++pages === dieOnPage) throw new Error("the process died between pages");
        return events.publish(...args);
      },
      markEnqueueFailed: (...args) => events.markEnqueueFailed(...args),
      resolveRef: (...args) => events.resolveRef(...args),
    },
    endpoints,
    jobs,
    metrics: new Metrics(),
    staleAfterMs: config.recovery.stale_after_ms,
    retentionS: config.retention_s,
    maxPayloadBytes: 1024,
    pageSize: 2,
  };
  const resume = (now: number) =>
    resumeFanouts({
      config,
      keys,
      events,
      endpoints,
      jobs,
      logger: silentLogger(),
      now: () => now,
    });
  const marked = async (ref: string) => ({
    fo: await redis.hexists(keys.event(ref), "fo"),
    listed: await redis.zscore(keys.fanouts(bucketFor(ref)), ref),
  });
  return {
    config,
    deps,
    events,
    enqueued,
    resume,
    marked,
    dieOn: (p: number) => ((dieOnPage = p), (pages = 0)),
  };
}

it("leaves an unfinished fanout to its publisher until stale_after_ms, then finishes it", async () => {
  const s = await setup(5);
  s.dieOn(2);
  await expect(publishEvent(s.deps, { id: "e1", type: "t", payload: 1 }, "acme")).rejects.toThrow();
  expect(await s.marked("acme/e1")).toEqual({ fo: 1, listed: expect.any(String) });
  expect(await s.resume(Date.now())).toBe(0);
  expect((await s.events.rows("acme", "e1")).length).toBe(2);

  expect(await s.resume(Date.now() + s.config.recovery.stale_after_ms + 1000)).toBe(1);
  expect((await s.events.rows("acme", "e1")).length).toBe(5);
  expect(await s.marked("acme/e1")).toEqual({ fo: 0, listed: null });
  expect(new Set(s.enqueued).size).toBe(5);
  expect(s.enqueued).toHaveLength(5);
});

it("recovery and a publisher finishing the same fanout at once make each row and job once", async () => {
  const s = await setup(9);
  s.dieOn(2);
  const body = { id: "e2", type: "t", payload: 1 };
  await expect(publishEvent(s.deps, body, "acme")).rejects.toThrow();
  s.dieOn(0);
  const later = Date.now() + s.config.recovery.stale_after_ms + 1000;
  const [answer] = await Promise.all([publishEvent(s.deps, body, "acme"), s.resume(later)]);
  expect(answer.counts.duplicate + answer.counts.created).toBe(9);
  expect((await s.events.rows("acme", "e2")).length).toBe(9);
  expect(s.enqueued).toHaveLength(9);
  expect(new Set(s.enqueued).size).toBe(9);
  expect(await s.marked("acme/e2")).toEqual({ fo: 0, listed: null });
});

it("a fanout finished by its publisher leaves no mark for recovery", async () => {
  const s = await setup(5);
  await publishEvent(s.deps, { id: "e3", type: "t", payload: 1 }, "acme");
  expect(await s.marked("acme/e3")).toEqual({ fo: 0, listed: null });
  expect(await s.resume(Date.now() + s.config.recovery.stale_after_ms + 1000)).toBe(0);
  expect(s.enqueued).toHaveLength(5);
});

// The AMQP sink under load against the real RabbitMQ: max_in_flight, batching with per-delivery answers, and
// that a connection cut mid-flow loses nothing once failed deliveries are retried.
import { describe, expect, it } from "vitest";
import {
  cutMidFlow,
  delivery,
  fixture,
  signal,
  sink,
  until,
  useCleanups,
} from "../support/amqp-sink-fixtures.ts";
import { closeConnection, connectionPids, uniqueName } from "../support/rabbit.ts";

useCleanups();

describe("amqp sink: flow", () => {
  it("max_in_flight bounds unconfirmed publishes; the rest wait for a slot", async () => {
    const fx = await fixture("inflight");
    await fx.declareExchange();
    await fx.bindQueue("#");
    const s = sink(uniqueName("inflight"), { exchange: fx.exchange, max_in_flight: 5 });
    let sawWaiting = 0;
    const poll = setInterval(() => {
      sawWaiting = Math.max(sawWaiting, s.stats().waitingForSlot);
    }, 1);
    const results = await Promise.all(Array.from({ length: 50 }, () => s.deliver(delivery(), signal())));
    clearInterval(poll);

    expect(results.every((r) => r.ok)).toBe(true);
    expect(s.stats().peakUnconfirmed).toBe(5);
    expect(s.stats().unconfirmed).toBe(0);
    expect(sawWaiting).toBeGreaterThan(0);
    expect(await fx.count()).toBe(50);
  });

  it("batching: 200 deliveries all arrive, each with its own ok, in fewer publishes rounds than deliveries", async () => {
    const fx = await fixture("batch");
    await fx.declareExchange();
    await fx.bindQueue("#");
    const s = sink(uniqueName("batch"), { exchange: fx.exchange, batch: { max: 50, max_delay_ms: 5 } });
    const ds = Array.from({ length: 200 }, () => delivery());
    const results = await Promise.all(ds.map((d) => s.deliver(d, signal())));

    expect(results.filter((r) => r.ok)).toHaveLength(200);
    expect(s.stats().batches).toBeGreaterThanOrEqual(4);
    expect(s.stats().batches).toBeLessThan(20);
    const ids = new Set((await fx.drain()).map((m) => m.properties.messageId as string));
    expect(ids).toEqual(new Set(ds.map((d) => d.hook.id)));
  });

  it("batching keeps per-delivery answers: an unroutable message in a batch fails alone", async () => {
    const fx = await fixture("batchmix");
    await fx.declareExchange();
    await fx.bindQueue("stripe.routed");
    const s = sink(uniqueName("batchmix"), { exchange: fx.exchange, batch: { max: 10, max_delay_ms: 20 } });
    const ds = Array.from({ length: 10 }, (_, i) => delivery({ tenant: i % 3 === 0 ? "nobody" : "routed" }));
    const results = await Promise.all(ds.map((d) => s.deliver(d, signal())));

    results.forEach((r, i) => {
      if (i % 3 === 0) expect(r).toMatchObject({ ok: false, failure: { kind: "transient" } });
      else expect(r).toEqual({ ok: true });
    });
    expect(s.stats().batches).toBe(1);
    expect(await fx.count()).toBe(6);
  });

  it("a broker-side connection close mid-flow: nothing hangs, nothing is ok without a confirm, retries deliver every one", async () => {
    let pid = "";
    await cutMidFlow({
      label: "brokerclose",
      // 100 ms of network latency keeps ~50 publishes unconfirmed at any moment, so the close lands on them.
      delayMs: 100,
      afterConnect: async (name) => {
        const pids = await connectionPids(`switchyard/${name}`);
        expect(pids).toHaveLength(1);
        pid = pids[0] ?? "";
      },
      cut: () => closeConnection(pid),
    });
  });

  it("a dropped socket mid-flow (no AMQP close): same guarantees", async () => {
    await cutMidFlow({
      label: "sockdrop",
      delayMs: 20,
      afterConnect: async () => undefined,
      cut: async (proxy, progress) => {
        await until(() => progress() >= 300);
        proxy.cutAll();
      },
    });
  });
});

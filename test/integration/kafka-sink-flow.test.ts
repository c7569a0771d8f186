// The kafka sink through real kafkajs against the Kafka-protocol test peer, over time: reconnects after the
// broker goes away, aborts, batching of concurrent deliveries, and flushing on close.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { KafkaSinkConfig } from "../../src/sinks/kafka/config.ts";
import type { Sink } from "../../src/sinks/sink.ts";
import { TOPIC, delivery, failureOf, kafkaSink, never } from "../support/kafka-sink-fixtures.ts";
import { KafkaTestBroker } from "../support/kafka-test-broker/broker.ts";

describe("kafka sink against the Kafka test broker", () => {
  let broker: KafkaTestBroker;
  const sinks: Sink[] = [];
  const sink = (overrides: Partial<KafkaSinkConfig> = {}): Sink => kafkaSink(broker, sinks, overrides);

  beforeEach(async () => {
    broker = await KafkaTestBroker.start({ topics: [TOPIC] });
  });

  afterEach(async () => {
    await Promise.all(sinks.splice(0).map((s) => s.close()));
    await broker.stop();
  });

  it("answers transient while the broker is down, and reconnects once it is back", async () => {
    const s = sink();
    expect(await s.deliver(delivery(), never())).toEqual({ ok: true });
    const port = broker.port;
    await broker.stop();

    const started = Date.now();
    const f = failureOf(await s.deliver(delivery(), never()));
    expect(f.kind).toBe("transient");
    expect(Date.now() - started).toBeLessThan(5000);

    broker = await KafkaTestBroker.start({ topics: [TOPIC], port });
    expect(await s.deliver(delivery(), never())).toEqual({ ok: true });
    expect(broker.records(TOPIC)).toHaveLength(1);
  });

  it("replaces the producer once the broker stops accepting its sequence numbers", async () => {
    const s = sink();
    expect(await s.deliver(delivery(), never())).toEqual({ ok: true });
    broker.forgetProducers(); // as after producer-id expiry: the next sequence (1) is out of order

    const f = failureOf(await s.deliver(delivery(), never()));
    expect(f).toMatchObject({
      kind: "transient",
      reason: expect.stringContaining("OUT_OF_ORDER_SEQUENCE_NUMBER"),
    });

    expect(await s.deliver(delivery(), never())).toEqual({ ok: true });
    expect(await s.deliver(delivery(), never())).toEqual({ ok: true });
    expect(broker.records(TOPIC)).toHaveLength(3);
    expect(broker.requestLog.filter((r) => r.api === "InitProducerId")).toHaveLength(2);
  });

  it("answers transient when no broker was ever reachable", async () => {
    const port = broker.port;
    await broker.stop();
    const s = sink({ brokers: [`127.0.0.1:${port}`] });
    expect(failureOf(await s.deliver(delivery(), never())).kind).toBe("transient");
    broker = await KafkaTestBroker.start({ topics: [TOPIC], port });
    expect(await s.deliver(delivery(), never())).toEqual({ ok: true });
  });

  it("resolves transient as soon as the signal aborts a send the broker is slow to answer", async () => {
    const s = sink();
    expect(await s.deliver(delivery(), never())).toEqual({ ok: true }); // connect first
    broker.failNext("Produce", 0, { delayMs: 1000 });
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error("attempt timed out")), 100);
    const started = Date.now();
    const f = failureOf(await s.deliver(delivery(), ac.signal));
    expect(f).toEqual({ kind: "transient", reason: expect.stringContaining("attempt timed out") });
    expect(Date.now() - started).toBeLessThan(700);
  });

  it("batches concurrent deliveries into fewer Produce requests, and all of them arrive", async () => {
    const s = sink({ batch: { max: 256, max_delay_ms: 5, max_bytes: 900_000 } });
    expect(await s.deliver(delivery(), never())).toEqual({ ok: true }); // connect first
    const before = broker.produceRequests;
    const ds = Array.from({ length: 50 }, () => delivery());

    const results = await Promise.all(ds.map((d) => s.deliver(d, never())));

    expect(results.every((r) => r.ok)).toBe(true);
    const requests = broker.produceRequests - before;
    expect(requests).toBeLessThan(50);
    expect(requests).toBeGreaterThanOrEqual(1);
    const ids = broker.records(TOPIC).map((r) => r.headers["x-switchyard-id"]?.toString());
    expect(new Set(ids)).toEqual(new Set([...ds.map((d) => d.hook.id), ids[0]]));
    expect(ids).toHaveLength(51);
  });

  it("sends concurrent unbatched deliveries one request each, with sequence numbers the broker accepts", async () => {
    const s = sink();
    const ds = Array.from({ length: 30 }, () => delivery());
    const results = await Promise.all(ds.map((d) => s.deliver(d, never())));
    expect(results.filter((r) => !r.ok)).toEqual([]);
    expect(broker.produceRequests).toBe(30);
    expect(broker.records(TOPIC)).toHaveLength(30);
  });

  it("splits a batch at `max` and shares one request's failure among its deliveries", async () => {
    const s = sink({ batch: { max: 10, max_delay_ms: 5, max_bytes: 900_000 } });
    expect(await s.deliver(delivery(), never())).toEqual({ ok: true });
    const before = broker.produceRequests;
    const results = await Promise.all(Array.from({ length: 25 }, () => s.deliver(delivery(), never())));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(broker.produceRequests - before).toBeGreaterThanOrEqual(3);

    // INVALID_RECORD: permanent, and not about size (a too-large batch is split instead: kafka-batch-bytes).
    broker.failNext("Produce", 87);
    const failed = await Promise.all(Array.from({ length: 5 }, () => s.deliver(delivery(), never())));
    expect(failed.map((r) => !r.ok && r.failure.kind)).toEqual(Array(5).fill("permanent"));
  });

  it("does not send a batched delivery aborted while it waits for its batch", async () => {
    const s = sink({ batch: { max: 256, max_delay_ms: 150, max_bytes: 900_000 } });
    expect(await s.deliver(delivery(), never())).toEqual({ ok: true });
    const before = broker.produceRequests;
    const ac = new AbortController();
    const pending = s.deliver(delivery(), ac.signal);
    setTimeout(() => ac.abort(new Error("shutting down")), 20);
    expect(failureOf(await pending).kind).toBe("transient");
    await new Promise((r) => setTimeout(r, 250));
    expect(broker.produceRequests).toBe(before);
    expect(broker.records(TOPIC)).toHaveLength(1);
  });

  it("flushes queued batched deliveries on close, and refuses deliveries after it", async () => {
    const s = sink({ batch: { max: 256, max_delay_ms: 200, max_bytes: 900_000 } });
    const pending = s.deliver(delivery(), never());
    await new Promise((r) => setTimeout(r, 20));
    await s.close();
    expect(await pending).toEqual({ ok: true });
    expect(broker.records(TOPIC)).toHaveLength(1);
    expect(failureOf(await s.deliver(delivery(), never())).kind).toBe("transient");
  });
});

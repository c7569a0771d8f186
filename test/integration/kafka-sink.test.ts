// The kafka sink through real kafkajs against the Kafka-protocol test peer: what arrives on the topic,
// how broker errors are classified, reconnects, batching and aborts.
import { createHash } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { KafkaSinkConfig } from "../../src/config/schema.ts";
import type { DeliveryResult } from "../../src/domain/error-class.ts";
import type { ClaimRef, Delivery, HookRecord } from "../../src/domain/hook.ts";
import { newId } from "../../src/domain/ids.ts";
import { silentLogger } from "../../src/observability/logger.ts";
import { createKafkaSink } from "../../src/sinks/kafka/kafka-sink.ts";
import type { Sink } from "../../src/sinks/sink.ts";
import { KafkaTestBroker } from "../support/kafka-test-broker/broker.ts";

const TOPIC = "hooks";

function hook(overrides: Partial<HookRecord> = {}): HookRecord {
  // Bytes that are not valid UTF-8, so a lossy round trip would show.
  const body = overrides.body ?? Buffer.from([0x7b, 0x22, 0xff, 0x00, 0xc3, 0x28, 0x22, 0x7d]);
  const id = newId("hk");
  return {
    id,
    source: "stripe",
    tenant: "acme",
    receivedAt: Date.UTC(2025, 0, 2, 3, 4, 5, 678),
    contentType: "application/json",
    headers: { "stripe-signature": "t=1,v1=abc", "user-agent": "Stripe/1.0" },
    body,
    sha256: createHash("sha256").update(body).digest("hex"),
    dedupKey: `evt_${id}`,
    idempotencyKey: `acme:stripe:evt_${id}`,
    sinks: ["stream"],
    ...overrides,
  };
}

function delivery(overrides: Partial<Delivery> = {}): Delivery {
  return { hook: hook(), sink: "stream", attempt: 1, replayId: undefined, claim: undefined, ...overrides };
}

const never = (): AbortSignal => new AbortController().signal;

function failureOf(result: DeliveryResult) {
  if (result.ok) throw new Error("expected a failure, got ok");
  return result.failure;
}

describe("kafka sink against the Kafka test broker", () => {
  let broker: KafkaTestBroker;
  const sinks: Sink[] = [];

  function sink(overrides: Partial<KafkaSinkConfig> = {}): Sink {
    const config: KafkaSinkConfig = {
      type: "kafka",
      brokers: [broker.address],
      topic: TOPIC,
      key: "{tenant}/{source}",
      client_id: "switchyard-test",
      ssl: false,
      ...overrides,
    };
    const s = createKafkaSink("stream", config, { logger: silentLogger(), defaultClaimCheckBytes: 1024 });
    sinks.push(s);
    return s;
  }

  beforeEach(async () => {
    broker = await KafkaTestBroker.start({ topics: [TOPIC] });
  });

  afterEach(async () => {
    await Promise.all(sinks.splice(0).map((s) => s.close()));
    await broker.stop();
  });

  it("publishes the queue message with the rendered key and the x-switchyard headers", async () => {
    const s = sink();
    const replayId = newId("rp");
    const d = delivery({ attempt: 3, replayId });
    expect(broker.requestLog).toEqual([]); // nothing connects before the first delivery

    expect(await s.deliver(d, never())).toEqual({ ok: true });

    const records = broker.records(TOPIC);
    expect(records).toHaveLength(1);
    const rec = records[0]!;
    expect(rec.key?.toString()).toBe("acme/stripe");
    expect(Object.fromEntries(Object.entries(rec.headers).map(([k, v]) => [k, v.toString()]))).toEqual({
      "x-switchyard-id": d.hook.id,
      "x-switchyard-source": "stripe",
      "x-switchyard-tenant": "acme",
      "x-switchyard-idempotency-key": d.hook.idempotencyKey,
      "x-switchyard-attempt": "3",
      "x-switchyard-replay-id": replayId,
    });
    const msg = JSON.parse(rec.value!.toString("utf8"));
    expect(msg).toEqual({
      id: d.hook.id,
      source: "stripe",
      tenant: "acme",
      received_at: "2025-01-02T03:04:05.678Z",
      content_type: "application/json",
      headers: { "stripe-signature": "t=1,v1=abc", "user-agent": "Stripe/1.0" },
      sha256: d.hook.sha256,
      idempotency_key: d.hook.idempotencyKey,
      replay_id: replayId,
      body_base64: d.hook.body.toString("base64"),
    });
    expect(Buffer.from(msg.body_base64, "base64").equals(d.hook.body)).toBe(true);
    // kafkajs chose exactly the versions the peer advertises.
    expect(broker.requestLog.find((r) => r.api === "Produce")?.version).toBe(7);
  });

  it("renders a hook without tenant as `-` in the key and sends null tenant", async () => {
    const s = sink({ key: "{tenant}/{source}/{id}" });
    const d = delivery({ hook: hook({ tenant: undefined, contentType: undefined }) });
    expect(await s.deliver(d, never())).toEqual({ ok: true });
    const rec = broker.records(TOPIC)[0]!;
    expect(rec.key?.toString()).toBe(`-/stripe/${d.hook.id}`);
    expect(rec.headers["x-switchyard-tenant"]).toBeUndefined();
    const msg = JSON.parse(rec.value!.toString());
    expect(msg.tenant).toBeNull();
    expect(msg.content_type).toBeNull();
    expect(msg.replay_id).toBeNull();
  });

  it("sends the claim instead of the body above claim_check_bytes, inline at or below it", async () => {
    const s = sink({ claim_check_bytes: 16 });
    expect(s.inlineMaxBytes).toBe(16);
    const big = hook({ body: Buffer.alloc(17, 0x61) });
    const claim: ClaimRef = { id: "c1", url: "http://gw.test/v1/claims/c1", sha256: big.sha256, size: 17 };
    const small = hook({ body: Buffer.alloc(16, 0x62) });

    expect(await s.deliver(delivery({ hook: big, claim }), never())).toEqual({ ok: true });
    expect(await s.deliver(delivery({ hook: small, claim: { ...claim, size: 16 } }), never())).toEqual({
      ok: true,
    });

    const [first, second] = broker.records(TOPIC).map((r) => JSON.parse(r.value!.toString()));
    expect(first.claim).toBe(claim.url);
    expect(first).not.toHaveProperty("body_base64");
    expect(first.sha256).toBe(big.sha256);
    expect(second.body_base64).toBe(small.body.toString("base64"));
    expect(second).not.toHaveProperty("claim");
  });

  it("uses dispatch's default claim-check limit when the sink sets none", () => {
    expect(sink().inlineMaxBytes).toBe(1024);
  });

  it("answers a missing topic as a config error quickly, without auto-creating it", async () => {
    await broker.stop();
    broker = await KafkaTestBroker.start({ topics: [TOPIC], autoCreateTopics: true });
    const s = sink({ topic: "no-such-topic" });
    const started = Date.now();
    const f = failureOf(await s.deliver(delivery(), never()));
    expect(Date.now() - started).toBeLessThan(5000);
    expect(f).toMatchObject({ kind: "permanent", config: true });
    expect(f.reason).toContain("UNKNOWN_TOPIC_OR_PARTITION");
    expect(broker.topics()).toEqual([TOPIC]);
    expect(broker.produceRequests).toBe(0);
  });

  it("classifies an injected UNKNOWN_TOPIC_OR_PARTITION on Produce as permanent config, in under 5 s", async () => {
    const s = sink();
    broker.failNext("Produce", 3, { times: 10 });
    const started = Date.now();
    const f = failureOf(await s.deliver(delivery(), never()));
    expect(Date.now() - started).toBeLessThan(5000);
    expect(f).toMatchObject({ kind: "permanent", config: true });
    expect(broker.produceRequests).toBeLessThanOrEqual(2); // kafkajs retried at most once
    expect(broker.records(TOPIC)).toEqual([]);
  });

  it("classifies TOPIC_AUTHORIZATION_FAILED as permanent config", async () => {
    const s = sink();
    broker.failNext("Produce", 29);
    expect(failureOf(await s.deliver(delivery(), never()))).toMatchObject({
      kind: "permanent",
      config: true,
    });
  });

  it("classifies MESSAGE_TOO_LARGE as permanent, not config", async () => {
    const s = sink();
    broker.failNext("Produce", 10);
    const f = failureOf(await s.deliver(delivery(), never()));
    expect(f).toMatchObject({ kind: "permanent", config: false });
    expect(f.reason).toContain("MESSAGE_TOO_LARGE");
    expect(broker.produceRequests).toBe(1); // not retriable: kafkajs did not resend
  });

  it("classifies a throttled Produce (THROTTLING_QUOTA_EXCEEDED) as retry_after", async () => {
    const s = sink();
    broker.failNext("Produce", 89, { throttleTimeMs: 100 });
    const f = failureOf(await s.deliver(delivery(), never()));
    expect(f).toEqual({ kind: "retry_after", ms: undefined, reason: expect.stringContaining("THROTTLING") });
    expect(broker.records(TOPIC)).toEqual([]);
  });

  it("treats an accepted Produce that carries a throttle time as delivered (the record is stored)", async () => {
    const s = sink();
    broker.failNext("Produce", 0, { throttleTimeMs: 100 });
    expect(await s.deliver(delivery(), never())).toEqual({ ok: true });
    expect(broker.records(TOPIC)).toHaveLength(1);
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
    const s = sink({ batch: { max: 256, max_delay_ms: 5 } });
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
    const s = sink({ batch: { max: 10, max_delay_ms: 5 } });
    expect(await s.deliver(delivery(), never())).toEqual({ ok: true });
    const before = broker.produceRequests;
    const results = await Promise.all(Array.from({ length: 25 }, () => s.deliver(delivery(), never())));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(broker.produceRequests - before).toBeGreaterThanOrEqual(3);

    broker.failNext("Produce", 10);
    const failed = await Promise.all(Array.from({ length: 5 }, () => s.deliver(delivery(), never())));
    expect(failed.map((r) => !r.ok && r.failure.kind)).toEqual(Array(5).fill("permanent"));
  });

  it("does not send a batched delivery aborted while it waits for its batch", async () => {
    const s = sink({ batch: { max: 256, max_delay_ms: 150 } });
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

  it("connects through a broker address with userinfo, and describes it without", async () => {
    const s = sink({ brokers: [`svc:secret@${broker.address}`] });
    expect(s.describe({ source: "stripe", tenant: "acme" })).toEqual({
      payload: "message",
      protocol: "kafka",
      host: broker.address,
      address: TOPIC,
    });
    expect(s.durable).toBe(true);
    expect(s.type).toBe("kafka");
    expect(await s.deliver(delivery(), never())).toEqual({ ok: true });
  });

  it("flushes queued batched deliveries on close, and refuses deliveries after it", async () => {
    const s = sink({ batch: { max: 256, max_delay_ms: 200 } });
    const pending = s.deliver(delivery(), never());
    await new Promise((r) => setTimeout(r, 20));
    await s.close();
    expect(await pending).toEqual({ ok: true });
    expect(broker.records(TOPIC)).toHaveLength(1);
    expect(failureOf(await s.deliver(delivery(), never())).kind).toBe("transient");
  });
});

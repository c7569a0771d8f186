// The kafka sink through real kafkajs against the Kafka-protocol test peer: what arrives on the topic, how the
// sink describes itself, and how broker errors are classified. Reconnects, aborts and batching are in
// kafka-sink-flow.test.ts.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { KafkaSinkConfig } from "../../src/sinks/kafka/config.ts";
import type { ClaimRef } from "../../src/domain/hook.ts";
import { newId } from "../../src/domain/ids.ts";
import type { Sink } from "../../src/sinks/sink.ts";
import { TOPIC, delivery, failureOf, hook, kafkaSink, never } from "../support/kafka-sink-fixtures.ts";
import { KafkaTestBroker } from "../support/kafka-test-broker/broker.ts";
import { sinkTraits } from "../../src/sinks/registry.ts";

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

  it("connects through a broker address with userinfo, and describes it without", async () => {
    const s = sink({ brokers: [`svc:secret@${broker.address}`] });
    expect(s.describe({ source: "stripe", tenant: "acme" })).toEqual({
      payload: "message",
      protocol: "kafka",
      host: broker.address,
      address: TOPIC,
    });
    expect(sinkTraits(s.type)?.durable).toBe(true);
    expect(s.type).toBe("kafka");
    expect(await s.deliver(delivery(), never())).toEqual({ ok: true });
  });
});

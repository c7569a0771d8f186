// A batch must fit the broker's message.max.bytes: batches are capped by bytes as well as count, and a
// batch the broker still finds too large is split and sent message by message, so only a message too
// large on its own is dead-lettered.
import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import type { KafkaSinkConfig } from "../../src/sinks/kafka/config.ts";
import type { Sink } from "../../src/sinks/sink.ts";
import { TOPIC, delivery, failureOf, hook, kafkaSink, never } from "../support/kafka-sink-fixtures.ts";
import { KafkaTestBroker } from "../support/kafka-test-broker/broker.ts";

const KiB = 1024;
let broker: KafkaTestBroker | undefined;
const sinks: Sink[] = [];
afterEach(async () => {
  await Promise.all(sinks.splice(0).map((s) => s.close()));
  await broker?.stop();
  broker = undefined;
});

async function start(maxMessageBytes: number, overrides: Partial<KafkaSinkConfig> = {}) {
  broker = await KafkaTestBroker.start({ topics: [TOPIC], maxMessageBytes });
  // Bodies of 64 KiB go inline (base64 in the queue message: ~87 KB each).
  return kafkaSink(broker, sinks, { claim_check_bytes: 512 * KiB, ...overrides });
}

const bodyOf = (bytes: number) => delivery({ hook: hook({ body: randomBytes(bytes) }) });

describe("oversized_kafka_batch", () => {
  it("64 inline 64 KiB bodies all reach a broker with Kafka's default 1 MB limit", async () => {
    const s = await start(1_048_588, { batch: { max: 256, max_delay_ms: 20, max_bytes: 900_000 } });
    const results = await Promise.all(Array.from({ length: 64 }, () => s.deliver(bodyOf(64 * KiB), never())));
    expect(results.filter((r) => !r.ok)).toEqual([]);
    expect(broker!.records(TOPIC)).toHaveLength(64);
    expect(Math.max(...broker!.recordSetBytes)).toBeLessThanOrEqual(1_048_588);
  });

  it("splits a batch the broker refuses as too large; only a message too large alone is permanent", async () => {
    // The sink's byte cap (900000) is above this broker's limit, so the broker refuses whole batches.
    const s = await start(300_000, { batch: { max: 256, max_delay_ms: 20, max_bytes: 900_000 } });
    const small = Array.from({ length: 8 }, () => bodyOf(64 * KiB));
    const huge = bodyOf(400 * KiB);
    const results = await Promise.all([...small, huge].map((d) => s.deliver(d, never())));
    expect(results.slice(0, 8)).toEqual(Array(8).fill({ ok: true }));
    expect(failureOf(results[8]!)).toMatchObject({
      kind: "permanent",
      reason: expect.stringContaining("MESSAGE_TOO_LARGE"),
    });
    const stored = broker!.records(TOPIC).map((r) => r.headers["x-switchyard-id"]?.toString());
    expect(stored.sort()).toEqual(small.map((d) => d.hook.id).sort());
  });
});

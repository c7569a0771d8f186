// Helpers shared by the kafka sink integration tests: hooks and deliveries with known fields (and a body that
// is not valid UTF-8), and sinks pointed at the Kafka-protocol test peer, so the message-shape and flow test
// files build their inputs the same way.
import { createHash } from "node:crypto";
import type { KafkaSinkConfig } from "../../src/sinks/kafka/config.ts";
import type { DeliveryResult } from "../../src/domain/error-class.ts";
import type { Delivery, HookRecord } from "../../src/domain/hook.ts";
import { newId } from "../../src/domain/ids.ts";
import { silentLogger } from "../../src/observability/logger.ts";
import { createKafkaSink } from "../../src/sinks/kafka/kafka-sink.ts";
import type { Sink } from "../../src/sinks/sink.ts";
import type { KafkaTestBroker } from "./kafka-test-broker/broker.ts";

/** The topic the test broker is started with and the sinks publish to. */
export const TOPIC = "hooks";

/** A fresh stripe hook for tenant `acme`, with `overrides` applied. */
export function hook(overrides: Partial<HookRecord> = {}): HookRecord {
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

/** A first-attempt delivery of a fresh hook to sink `stream`, with `overrides` applied. */
export function delivery(overrides: Partial<Delivery> = {}): Delivery {
  return { hook: hook(), sink: "stream", attempt: 1, replayId: undefined, claim: undefined, ...overrides };
}

/** A signal that never aborts. */
export const never = (): AbortSignal => new AbortController().signal;

/** The failure in `result`; throws if the delivery was ok. */
export function failureOf(result: DeliveryResult) {
  if (result.ok) throw new Error("expected a failure, got ok");
  return result.failure;
}

/**
 * A kafka sink named `stream` on `broker` (key `{tenant}/{source}` unless overridden), added to `opened` so
 * the test file's `afterEach` can close it.
 */
export function kafkaSink(
  broker: KafkaTestBroker,
  opened: Sink[],
  overrides: Partial<KafkaSinkConfig> = {},
): Sink {
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
  opened.push(s);
  return s;
}

// Hooks through the whole gateway to Kafka, played by the Kafka-protocol test peer in test/support.
import { afterEach, expect, it } from "vitest";
import type { QueueMessageV1 } from "../../src/sinks/queue-message.ts";
import { metricValue, sendHook, waitForState } from "../support/hooks.ts";
import { KafkaTestBroker } from "../support/kafka-test-broker/broker.ts";
import { type TestGateway, startTestGateway, testConfig } from "../support/test-gateway.ts";

let gw: TestGateway | undefined;
let broker: KafkaTestBroker | undefined;
afterEach(async () => {
  await gw?.stop();
  await broker?.stop();
});

async function setup(topic: string) {
  broker = await KafkaTestBroker.start({ topics: ["hooks"] });
  gw = await startTestGateway(
    testConfig({
      dispatch: { retry: { base_ms: 20, max_ms: 100, max_attempts: 10, max_elapsed_ms: 60_000 } },
      sinks: { stream: { type: "kafka", brokers: [broker.address], topic } },
      sources: {
        github: { verify: { type: "none" }, dedup: "github", sinks: ["stream"], tenants: ["acme"] },
      },
    }),
  );
  return { gw, broker };
}

it("produces a record with key, headers and the queue message as value", async () => {
  const { gw, broker } = await setup("hooks");
  const res = await fetch(`${gw.url}/webhooks/acme/github`, {
    method: "POST",
    body: '{"zen":"Keep it logically awesome."}',
    headers: { "x-github-delivery": "d-1", "content-type": "application/json" },
  });
  const { id } = (await res.json()) as { id: string };
  await waitForState(gw, id, "stream", "delivered");
  const [record, ...rest] = broker.records("hooks");
  expect(rest).toHaveLength(0);
  expect(record!.key?.toString()).toBe("acme/github");
  expect(record!.headers["x-switchyard-id"]?.toString()).toBe(id);
  expect(record!.headers["x-switchyard-idempotency-key"]?.toString()).toBe("acme:github:h:d-1");
  const value = JSON.parse(record!.value!.toString()) as QueueMessageV1;
  expect(value).toMatchObject({ id, source: "github", tenant: "acme", idempotency_key: "acme:github:h:d-1" });
  expect(Buffer.from(value.body_base64!, "base64").toString()).toBe('{"zen":"Keep it logically awesome."}');
});

it("dead-letters an unknown topic as a config error", async () => {
  const { gw, broker } = await setup("no-such-topic");
  const id = await sendHook(gw, "github", "{}", { "x-github-delivery": "d-2" });
  const state = await waitForState(gw, id, "stream", "dead");
  expect(state).toMatchObject({ attempts: 1, error_class: "permanent" });
  expect(await metricValue(gw, "switchyard_dispatch_config_errors_total", { sink: "stream" })).toBe(1);
  expect(broker.records("hooks")).toHaveLength(0);
});

it("retries later when the broker throttles", async () => {
  const { gw, broker } = await setup("hooks");
  broker.failNext("Produce", 89); // THROTTLING_QUOTA_EXCEEDED
  const id = await sendHook(gw, "github", "{}", { "x-github-delivery": "d-3" });
  const state = await waitForState(gw, id, "stream", "delivered");
  expect(state.attempts).toBe(2);
  expect(
    await metricValue(gw, "switchyard_dispatch_attempts_total", { sink: "stream", result: "throttled" }),
  ).toBe(1);
  expect(broker.records("hooks")).toHaveLength(1);
});

// A large hook through the whole gateway to RabbitMQ and Kafka: both sinks get the same claim instead
// of the body, and the claim resolves to the very bytes that were received.
import { createHash, randomBytes } from "node:crypto";
import { afterEach, expect, it } from "vitest";
import type { QueueMessageV1 } from "../../src/sinks/queue-message.ts";
import { sendHook, waitForState } from "../support/hooks.ts";
import { KafkaTestBroker } from "../support/kafka-test-broker/broker.ts";
import { RABBIT_URL, type RabbitFixture, rabbitFixture } from "../support/rabbit.ts";
import { ADMIN_TOKEN, type TestGateway, startTestGateway, testConfig } from "../support/test-gateway.ts";

const MiB = 1024 * 1024;
let gw: TestGateway | undefined;
let rabbit: RabbitFixture | undefined;
let kafka: KafkaTestBroker | undefined;
afterEach(async () => {
  await gw?.stop();
  await rabbit?.cleanup();
  await kafka?.stop();
});

it("hands both queue sinks one claim that resolves to the exact 5 MiB body", async () => {
  rabbit = await rabbitFixture("claim");
  await rabbit.declareExchange();
  await rabbit.bindQueue("#");
  kafka = await KafkaTestBroker.start({ topics: ["hooks"] });
  gw = await startTestGateway(
    testConfig({
      http: { max_body_bytes: 8 * MiB },
      sinks: {
        bus: { type: "amqp", url: RABBIT_URL, exchange: rabbit.exchange },
        stream: { type: "kafka", brokers: [kafka.address], topic: "hooks" },
      },
      sources: { big: { verify: { type: "none" }, sinks: ["bus", "stream"] } },
    }),
  );
  const body = randomBytes(5 * MiB);
  const id = await sendHook(gw, "big", body, { "content-type": "application/octet-stream" });
  await waitForState(gw, id, "bus", "delivered", 20_000);
  await waitForState(gw, id, "stream", "delivered", 20_000);

  const [amqpMsg] = await rabbit.drain();
  const fromRabbit = JSON.parse(amqpMsg!.content.toString()) as QueueMessageV1;
  const fromKafka = JSON.parse(kafka.records("hooks")[0]!.value!.toString()) as QueueMessageV1;
  const nowS = Math.floor(Date.now() / 1000);
  for (const m of [fromRabbit, fromKafka]) {
    expect(m.body_base64).toBeUndefined();
    // A signed, expiring URL: valid for at most the hook's retention.
    const url = new URL(m.claim!);
    expect(`${url.origin}${url.pathname}`).toBe(`${gw.url}/v1/claims/${id}`);
    const exp = Number(url.searchParams.get("exp"));
    expect(exp).toBeGreaterThan(nowS);
    expect(exp).toBeLessThanOrEqual(nowS + gw.config.retention_s + 5);
    expect(url.searchParams.get("sig")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(m.sha256).toBe(createHash("sha256").update(body).digest("hex"));
  }
  // The messages themselves stay small.
  expect(amqpMsg!.content.length).toBeLessThan(4096);

  // The signed URL needs no admin token; the path alone does.
  expect((await fetch(`${gw.url}/v1/claims/${id}`)).status).toBe(401);
  const res = await fetch(fromRabbit.claim!);
  expect(res.status).toBe(200);
  expect(
    (await fetch(fromKafka.claim!, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).status,
  ).toBe(200);
  const fetched = Buffer.from(await res.arrayBuffer());
  expect(fetched.equals(body)).toBe(true);
  expect(createHash("sha256").update(fetched).digest("hex")).toBe(fromKafka.sha256);
}, 60_000);

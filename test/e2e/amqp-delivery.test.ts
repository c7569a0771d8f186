// Hooks through the whole gateway to the real RabbitMQ: ingest → queue → worker → amqp sink → exchange.
import { afterEach, expect, it } from "vitest";
import type { QueueMessageV1 } from "../../src/sinks/queue-message.ts";
import { metricValue, sendHook, waitForState } from "../support/hooks.ts";
import {
  RABBIT_URL,
  type RabbitFixture,
  closeConnection,
  connectionPids,
  rabbitFixture,
} from "../support/rabbit.ts";
import { type TestGateway, eventually, startTestGateway, testConfig } from "../support/test-gateway.ts";

let gw: TestGateway | undefined;
let rabbit: RabbitFixture | undefined;
afterEach(async () => {
  await gw?.stop();
  await rabbit?.cleanup();
});

function amqpGateway(exchange: string, sinkName: string, extra: Record<string, unknown> = {}) {
  return startTestGateway(
    testConfig({
      dispatch: {
        concurrency: 32,
        retry: { base_ms: 20, max_ms: 200, max_attempts: 50, max_elapsed_ms: 60_000 },
      },
      sinks: {
        [sinkName]: { type: "amqp", url: RABBIT_URL, exchange, routing_key: "{source}.{tenant}", ...extra },
      },
      sources: { orders: { verify: { type: "none" }, sinks: [sinkName], tenants: ["acme"] } },
    }),
  );
}

it("puts a hook on a queue bound to the exchange with every message field", async () => {
  rabbit = await rabbitFixture("e2e");
  await rabbit.declareExchange();
  await rabbit.bindQueue("orders.#");
  gw = await amqpGateway(rabbit.exchange, "bus");
  const body = Buffer.from('{"order":42,"note":"\u00e9"}');
  const res = await fetch(`${gw.url}/webhooks/acme/orders`, {
    method: "POST",
    body,
    headers: { "content-type": "application/json", "x-request-id": "r-1" },
  });
  const { id } = (await res.json()) as { id: string };
  await waitForState(gw, id, "bus", "delivered");

  const [msg, ...rest] = await rabbit.drain();
  expect(rest).toHaveLength(0);
  expect(msg!.fields.routingKey).toBe("orders.acme");
  expect(msg!.properties.headers?.["x-switchyard-id"]).toBe(id);
  expect(msg!.properties.deliveryMode).toBe(2);
  const m = JSON.parse(msg!.content.toString()) as QueueMessageV1;
  expect(m).toMatchObject({
    id,
    source: "orders",
    tenant: "acme",
    content_type: "application/json",
    idempotency_key: expect.stringMatching(/^acme:orders:sha256:/),
    replay_id: null,
  });
  expect(new Date(m.received_at).toISOString()).toBe(m.received_at);
  expect(m.headers["x-request-id"]).toBe("r-1");
  expect(Buffer.from(m.body_base64!, "base64").equals(body)).toBe(true);
  expect(m.sha256).toMatch(/^[0-9a-f]{64}$/);
  expect(m.claim).toBeUndefined();
});

it("dead-letters a missing exchange as permanent and counts a config error", async () => {
  rabbit = await rabbitFixture("e2e-missing"); // the exchange is never declared
  gw = await amqpGateway(rabbit.exchange, "bus");
  const id = await sendHook(gw, "orders", "{}");
  const state = await waitForState(gw, id, "bus", "dead");
  expect(state).toMatchObject({ attempts: 1, error_class: "permanent" });
  expect(await metricValue(gw, "switchyard_dispatch_config_errors_total", { sink: "bus" })).toBe(1);
});

it("loses no hook when the broker closes the connection while 1,000 flow", async () => {
  rabbit = await rabbitFixture("e2e-cut");
  await rabbit.declareExchange();
  await rabbit.bindQueue("#");
  const sinkName = `cut${Date.now().toString(36)}`;
  gw = await amqpGateway(rabbit.exchange, sinkName);

  const ids: string[] = [];
  let cut = false;
  const send = async (n: number) => {
    for (let i = n; i < 1000; i += 20) ids.push(await sendHook(gw!, "orders", `{"n":${i}}`));
  };
  const cutter = (async () => {
    const pids = await eventually(
      async () => {
        const found = await connectionPids(`switchyard/${sinkName}`);
        return ids.length > 200 && found.length > 0 ? found : undefined;
      },
      20_000,
      "the sink's connection mid-flow",
    );
    await Promise.all(pids.map((pid) => closeConnection(pid, "test: connection cut mid-flow")));
    cut = true;
  })();
  await Promise.all([...Array.from({ length: 20 }, (_, n) => send(n)), cutter]);
  expect(cut).toBe(true);
  expect(ids).toHaveLength(1000);

  for (const id of ids) await waitForState(gw, id, sinkName, "delivered", 30_000);
  const seen = new Set<string>();
  await eventually(
    async () => {
      for (const m of await rabbit!.drain(1000))
        seen.add((JSON.parse(m.content.toString()) as QueueMessageV1).id);
      return seen.size >= 1000;
    },
    20_000,
    "1000 distinct hooks on the queue",
  );
  expect(seen.size).toBe(1000);
  for (const id of ids) expect(seen.has(id)).toBe(true);
}, 90_000);

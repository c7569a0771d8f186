// Operational events about deliveries, end to end on real Redis: an outbound delivery failing
// `failing_after` times, then exhausted; one that recovers after failing; an inbound hook dead at its
// sink. Each arrives at an operator's endpoint subscribed to `switchyard.*`, signed and verified with the
// `standardwebhooks` package, with the payload the README documents.
import { expect, it } from "vitest";
import { admin } from "../integration/admin-fixtures.ts";
import { sendHook } from "../support/hooks.ts";
import { opsEndpoint } from "../support/operational.ts";
import {
  createEndpoint,
  gateway,
  outboundConfig,
  publish,
  receiver,
  useOutboundTeardown,
  waitForDelivery,
} from "../support/outbound.ts";
import { eventually, testConfig } from "../support/test-gateway.ts";

useOutboundTeardown();

const retry = { base_ms: 20, max_ms: 50, max_attempts: 3, max_elapsed_ms: 60_000 };
// No breaker opens in these tests: every failure is a failed attempt of its own.
const breaker = { failures: 1000, open_ms: 500, max_open_ms: 2000 };

it("sends switchyard.delivery.failing after failing_after failed attempts, then .exhausted when it dies", async () => {
  const gw = await gateway(
    outboundConfig({ retry, breaker }, { operational: { failing_after: 2, flush_ms: 20 } }),
  );
  const ops = await opsEndpoint(gw);
  const down = await receiver({ fallback: 500 });
  const app = await createEndpoint(gw, { url: `${down.url}/orders`, event_types: ["order.*"] });
  await publish(gw, { id: "o-1", type: "order.paid", payload: { n: 1 } });

  const [failing] = await eventually(
    () => ops.of("switchyard.delivery.failing").length === 1 && ops.of("switchyard.delivery.failing"),
    15_000,
    "delivery.failing",
  );
  const [exhausted] = await eventually(
    () => ops.of("switchyard.delivery.exhausted").length === 1 && ops.of("switchyard.delivery.exhausted"),
    15_000,
    "delivery.exhausted",
  );
  expect(failing?.data).toMatchObject({
    event_id: "o-1",
    event_type: "order.paid",
    endpoint_id: app.id,
    attempts: 2,
    state: "retrying",
    last_attempt: { status_code: 500, error_class: expect.any(String) as unknown },
  });
  expect(typeof failing?.data.next_attempt_at).toBe("string");
  expect(exhausted?.data).toMatchObject({
    event_id: "o-1",
    endpoint_id: app.id,
    attempts: 3,
    last_attempt: { status_code: 500 },
  });
  expect(exhausted?.data.delivery_id).toBe(failing?.data.delivery_id);
  expect(exhausted?.id).toMatch(/^op:delivery\.exhausted:dl_/);
  // Nothing else about it, and nothing twice.
  await new Promise((r) => setTimeout(r, 300));
  expect(
    ops
      .events()
      .map((e) => e.type)
      .filter((t) => t.startsWith("switchyard.delivery."))
      .sort(),
  ).toEqual(["switchyard.delivery.exhausted", "switchyard.delivery.failing"]);

  // Replayed once the endpoint is back, it is delivered at the first attempt of its new run: that is
  // not a recovery from failing (a replay starts the count again), so nothing more is sent.
  down.setFallback(200);
  const replay = await admin(gw, "POST", "/v1/replays", {
    body: { filter: { ids: [String(failing?.data.delivery_id)] } },
  });
  expect(replay.status).toBe(202);
  await waitForDelivery(gw, "o-1", app.id, "delivered", 15_000);
  await new Promise((r) => setTimeout(r, 500));
  // (The endpoints' creation and the replay's end are facts too; about the delivery, nothing more.)
  expect(ops.events().filter((e) => e.type.startsWith("switchyard.delivery."))).toHaveLength(2);
});

it("sends switchyard.delivery.recovered when a delivery marked failing is delivered", async () => {
  const gw = await gateway(
    outboundConfig({ retry, breaker }, { operational: { failing_after: 2, flush_ms: 20 } }),
  );
  const ops = await opsEndpoint(gw);
  const flaky = await receiver({ script: [500, 500], fallback: 200 });
  const app = await createEndpoint(gw, { url: `${flaky.url}/orders`, event_types: ["order.*"] });
  await publish(gw, { id: "o-2", type: "order.paid", payload: { n: 2 } });

  const [recovered] = await eventually(
    () => ops.of("switchyard.delivery.recovered").length === 1 && ops.of("switchyard.delivery.recovered"),
    15_000,
    "delivery.recovered",
  );
  expect(recovered?.data).toMatchObject({
    event_id: "o-2",
    endpoint_id: app.id,
    attempts: 3,
    status_code: 200,
  });
  expect(typeof recovered?.data.delivered_at).toBe("string");
  expect(ops.of("switchyard.delivery.failing")).toHaveLength(1);
  expect(ops.of("switchyard.delivery.exhausted")).toHaveLength(0);
});

it("sends switchyard.hook.dead when an inbound hook dies at its sink", async () => {
  const down = await receiver({ fallback: 500 });
  const gw = await gateway(
    testConfig({
      outbound: { allow_private: true },
      operational: { flush_ms: 20 },
      dispatch: { retry: { ...retry, max_attempts: 2 }, breaker },
      sinks: { forward: { type: "http", url: `${down.url}/in` } },
      sources: { shop: { verify: { type: "none" }, sinks: ["forward"] } },
    }),
  );
  const ops = await opsEndpoint(gw);
  const hookId = await sendHook(gw, "shop", JSON.stringify({ order: 9 }));
  const [dead] = await eventually(
    () => ops.of("switchyard.hook.dead").length === 1 && ops.of("switchyard.hook.dead"),
    15_000,
    "hook.dead",
  );
  expect(dead?.data).toMatchObject({
    hook_id: hookId,
    source: "shop",
    sink: "forward",
    attempts: 2,
    last_attempt: { status_code: 500 },
  });
  expect(typeof dead?.data.dead_at).toBe("string");
});

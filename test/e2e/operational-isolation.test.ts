// Who hears an operational fact, end to end: a tenant's `switchyard.*` endpoint gets only the facts
// about its own tenant's deliveries, an operator's (tenant-less) one gets every fact, and an endpoint
// subscribed to `*` gets none (only a subscription naming them does). And no loop: an operational
// endpoint that fails produces no delivery fact about its own deliveries of operational events.
import { expect, it } from "vitest";
import { opsEndpoint } from "../support/operational.ts";
import {
  createEndpoint,
  gateway,
  outboundConfig,
  publish,
  receiver,
  useOutboundTeardown,
} from "../support/outbound.ts";
import { eventually } from "../support/test-gateway.ts";

useOutboundTeardown();

const breaker = { failures: 1000, open_ms: 500, max_open_ms: 2000 };
const EXHAUSTED = "switchyard.delivery.exhausted";

it("isolation: a tenant's operational endpoint gets only its tenant's facts, the operator's all, * none", async () => {
  const gw = await gateway(
    outboundConfig(
      { breaker, retry: { base_ms: 10, max_ms: 20, max_attempts: 1, max_elapsed_ms: 10_000 } },
      { operational: { flush_ms: 20 } },
    ),
  );
  // The delivery facts only: the endpoint facts (switchyard.endpoint.*) are another test's.
  const delivery = ["switchyard.delivery.*"];
  const operator = await opsEndpoint(gw, { patterns: delivery });
  const acme = await opsEndpoint(gw, { tenant: "acme", patterns: delivery });
  const globex = await opsEndpoint(gw, { tenant: "globex", patterns: delivery });
  const starOperator = await opsEndpoint(gw, { patterns: ["*"] });
  const starAcme = await opsEndpoint(gw, { patterns: ["*"], tenant: "acme" });
  const down = await receiver({ fallback: 500 });
  const apps = {
    acme: await createEndpoint(gw, { url: `${down.url}/a`, event_types: ["order.*"], tenant: "acme" }),
    globex: await createEndpoint(gw, { url: `${down.url}/g`, event_types: ["order.*"], tenant: "globex" }),
    none: await createEndpoint(gw, { url: `${down.url}/n`, event_types: ["order.*"] }),
  };
  await publish(gw, { id: "a-1", type: "order.paid", tenant: "acme", payload: 1 });
  await publish(gw, { id: "g-1", type: "order.paid", tenant: "globex", payload: 2 });
  await publish(gw, { id: "n-1", type: "order.paid", payload: 3 });

  await eventually(() => operator.of(EXHAUSTED).length === 3, 15_000, "the operator to hear all three");
  await eventually(
    () => acme.of(EXHAUSTED).length === 1 && globex.of(EXHAUSTED).length === 1,
    15_000,
    "each tenant its own",
  );
  await new Promise((r) => setTimeout(r, 500)); // anything that would leak has had its time

  const about = (events: { data: Record<string, unknown> }[]) =>
    events
      .map((e) => `${String(e.data.tenant ?? "-")}/${String(e.data.event_id)}@${String(e.data.endpoint_id)}`)
      .sort();
  expect(about(operator.of(EXHAUSTED))).toEqual(
    [`-/n-1@${apps.none.id}`, `acme/a-1@${apps.acme.id}`, `globex/g-1@${apps.globex.id}`].sort(),
  );
  expect(about(acme.events())).toEqual([`acme/a-1@${apps.acme.id}`]);
  expect(about(globex.events())).toEqual([`globex/g-1@${apps.globex.id}`]);
  // The same fact has one event id in every scope it is published in.
  expect(acme.events()[0]?.id).toBe(operator.of(EXHAUSTED).find((e) => e.data.tenant === "acme")?.id);
  // `*` took the application's events of its own scope, and not one operational event.
  expect(starOperator.events().map((e) => e.type)).toEqual(["order.paid"]);
  expect(starAcme.events().map((e) => e.type)).toEqual(["order.paid"]);
});

it("no loop: an operational endpoint that fails produces no delivery fact about its own deliveries", async () => {
  const gw = await gateway(
    outboundConfig(
      { breaker, retry: { base_ms: 10, max_ms: 20, max_attempts: 2, max_elapsed_ms: 10_000 } },
      { operational: { failing_after: 1, flush_ms: 20 } },
    ),
  );
  // This one fails every operational event it is sent, until each is dead.
  const failingOps = await opsEndpoint(gw, { fallback: 500, patterns: ["switchyard.delivery.*"] });
  const watcher = await opsEndpoint(gw, { patterns: ["switchyard.delivery.*"] });
  const down = await receiver({ fallback: 500 });
  const app = await createEndpoint(gw, { url: `${down.url}/app`, event_types: ["order.*"] });
  await publish(gw, { id: "loop-1", type: "order.paid", payload: 1 });

  // The app's delivery: failing (attempt 1) and exhausted (attempt 2); each sent to both operational
  // endpoints, and the failing one fails both of its attempts of each.
  await eventually(() => watcher.events().length >= 2, 15_000, "the app delivery's two facts");
  await failingOps.rx.waitForRequests(4, 15_000);
  await new Promise((r) => setTimeout(r, 1000)); // the failing endpoint's rows die; a loop would show now
  expect(
    watcher
      .events()
      .map((e) => `${e.type}@${String(e.data.endpoint_id)}`)
      .sort(),
  ).toEqual([`switchyard.delivery.exhausted@${app.id}`, `switchyard.delivery.failing@${app.id}`]);
  expect(failingOps.rx.requests).toHaveLength(4);
  const published = (await gw.metrics.operationalEvents.get()).values
    .filter(
      (v) => v.labels.outcome === "published" && String(v.labels.type).startsWith("switchyard.delivery."),
    )
    .reduce((n, v) => n + v.value, 0);
  expect(published).toBe(2);
});

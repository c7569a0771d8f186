// metric_labels_from_bodies: an unbound admin token publishes for any tenant its event body names, and
// endpoints may be made for any tenant; the `tenant` label of the outbound metrics must still come from
// a bounded set (tenants the config declares, `-` for none, `_unknown` for the rest), or one caller
// grows a series per invented name.
import { randomBytes } from "node:crypto";
import { expect, it } from "vitest";
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

const OUTBOUND_SERIES = /^(switchyard_outbound_[a-z_]+)\{(?:[^}]*,)?tenant="([^"]*)"/;

it("metric_labels_from_bodies: 100 events for random tenants yield a bounded tenant label set", async () => {
  const rx = await receiver({ fallback: 200 });
  const gw = await gateway(
    outboundConfig(
      {},
      {
        admin: {
          tokens: ["test-admin-token-0123456789", { token: "acme-token-0123456789", tenant: "acme" }],
        },
        sources: {
          src: { verify: { type: "none" }, sinks: ["log"], allow_non_durable: true, tenant: "globex" },
        },
      },
    ),
    { roles: ["api", "dispatch"] },
  );
  const tenants = Array.from({ length: 100 }, () => `t${randomBytes(6).toString("hex")}`);
  for (const tenant of [...tenants.slice(0, 5), "acme", "globex"])
    await createEndpoint(gw, { url: `${rx.url}/in`, event_types: ["order.*"], tenant });
  for (const [i, tenant] of tenants.entries())
    await publish(gw, { id: `ev-${i}`, type: "order.paid", tenant, payload: { i } });
  await publish(gw, { id: "ev-acme", type: "order.paid", tenant: "acme", payload: {} });
  await publish(gw, { id: "ev-globex", type: "order.paid", tenant: "globex", payload: {} });
  // The five random tenants with an endpoint, plus acme and globex, are each delivered once.
  await rx.waitForRequests(7, 15_000);

  const text = await eventually(async () => {
    const t = await (await fetch(`${gw.url}/metrics`)).text();
    return t.includes("switchyard_outbound_attempts_total{") ? t : undefined;
  });
  const labels = new Map<string, Set<string>>();
  for (const line of text.split("\n")) {
    const m = OUTBOUND_SERIES.exec(line);
    if (!m) continue;
    const [, metric, tenant] = m as unknown as [string, string, string];
    labels.set(metric, (labels.get(metric) ?? new Set()).add(tenant));
  }
  expect(labels.get("switchyard_outbound_events_total")).toEqual(new Set(["_unknown", "acme", "globex"]));
  for (const [metric, values] of labels)
    for (const value of values)
      expect(["-", "_unknown", "acme", "globex"], `${metric}{tenant="${value}"}`).toContain(value);
  for (const tenant of tenants) expect(text).not.toContain(tenant);
});

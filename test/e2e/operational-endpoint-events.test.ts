// Operational events about endpoints, end to end on real Redis: created, updated (config and secret
// rotation), disabled by an operator and by a 410, enabled, deleted, each arriving at an operator's
// `switchyard.*` endpoint, verified with the `standardwebhooks` package, with the API's view of the
// endpoint (never its secret). A replayed PATCH and a retried write give one event per fact.
import { expect, it } from "vitest";
import { admin } from "../integration/admin-fixtures.ts";
import { type OpsEndpoint, opsEndpoint } from "../support/operational.ts";
import {
  createEndpoint,
  endpointView,
  gateway,
  outboundConfig,
  publish,
  receiver,
  useOutboundTeardown,
} from "../support/outbound.ts";
import { eventually } from "../support/test-gateway.ts";
import { undocumentedPayloads } from "../support/operational-schema-check.ts";

useOutboundTeardown();

const fast = { operational: { flush_ms: 20 } };

/** The events about endpoint `id` in arrival order, as `type` names without the prefix. */
const about = (ops: OpsEndpoint, id: string): string[] =>
  ops
    .events()
    .filter((e) => e.type.startsWith("switchyard.endpoint.") && e.data.endpoint_id === id)
    .map((e) => e.type.slice("switchyard.endpoint.".length));

it("sends switchyard.endpoint.* for every change, with the API's view of the endpoint and never its secret", async () => {
  const gw = await gateway(outboundConfig({}, fast));
  const ops = await opsEndpoint(gw);
  const rx = await receiver();
  const app = await createEndpoint(gw, {
    url: `http://user:pw-s3cret@127.0.0.1:${rx.port}/orders`,
    event_types: ["order.*"],
    headers: { authorization: "Bearer hdr-s3cret", "x-team": "billing" },
  });
  const patch = (body: unknown) => admin(gw, "PATCH", `/v1/endpoints/${app.id}`, { body });
  const waitFor = (n: number) =>
    eventually(() => about(ops, app.id).length >= n && about(ops, app.id), 10_000, `${n} events`);

  await waitFor(1);
  expect((await patch({ description: "billing" })).status).toBe(200);
  await waitFor(2);
  // The same PATCH again changes nothing: no second fact.
  expect((await patch({ description: "billing" })).status).toBe(200);
  expect((await patch({ disabled: true })).status).toBe(200);
  await waitFor(3);
  expect((await patch({ disabled: false })).status).toBe(200);
  await waitFor(4);
  const rotated = await admin(gw, "POST", `/v1/endpoints/${app.id}/rotate-secret`, { body: {} });
  expect(rotated.status).toBe(200);
  await waitFor(5);
  const view = await endpointView(gw, app.id);
  expect((await admin(gw, "DELETE", `/v1/endpoints/${app.id}`)).status).toBe(204);
  await waitFor(6);
  await new Promise((r) => setTimeout(r, 200));

  expect(about(ops, app.id)).toEqual(["created", "updated", "disabled", "enabled", "updated", "deleted"]);
  const events = ops.events().filter((e) => e.data.endpoint_id === app.id);
  const [created, updated, disabled, enabled, secret, deleted] = events;
  expect(new Set(events.map((e) => e.id)).size).toBe(6);
  expect(created?.id).toMatch(new RegExp(`^op:endpoint\\.created:${app.id}:1$`));
  expect(created?.data).toMatchObject({
    endpoint_id: app.id,
    version: 1,
    endpoint: {
      id: app.id,
      url: `http://user:***@127.0.0.1:${rx.port}/orders`,
      headers: { authorization: "[redacted]", "x-team": "billing" },
      disabled: false,
    },
  });
  expect(created?.data).not.toHaveProperty("tenant");
  expect(updated?.data).toMatchObject({ changed: ["description"], endpoint: { description: "billing" } });
  expect(disabled?.data).toMatchObject({
    cause: "operator",
    reason: "disabled by an operator",
    endpoint: { disabled: true },
  });
  expect(enabled?.data).toMatchObject({ endpoint: { disabled: false } });
  expect(secret?.data).toMatchObject({ changed: ["secret"] });
  // The last snapshot is the API's view just before the deletion.
  expect(deleted?.data.endpoint).toEqual(view);
  expect(undocumentedPayloads(ops.events())).toEqual([]);
  for (const text of ops.rx.requests.map((r) => r.body.toString("utf8"))) {
    expect(text).not.toContain("s3cret");
    expect(text).not.toContain("whsec_");
  }
}, 30_000);

it("sends switchyard.endpoint.disabled with cause gone when the worker disables an endpoint after a 410", async () => {
  const gw = await gateway(outboundConfig({}, fast));
  const ops = await opsEndpoint(gw);
  const gone = await receiver({ fallback: 410 });
  const app = await createEndpoint(gw, { url: `${gone.url}/orders`, event_types: ["order.*"] });
  await publish(gw, { id: "o-410", type: "order.paid", payload: {} });
  const [disabled] = await eventually(
    () => ops.of("switchyard.endpoint.disabled").length > 0 && ops.of("switchyard.endpoint.disabled"),
    10_000,
    "endpoint.disabled",
  );
  expect(disabled?.data).toMatchObject({
    endpoint_id: app.id,
    cause: "gone",
    reason: "the endpoint answered 410 Gone",
    version: 2,
  });
  expect(disabled?.id).toBe(`op:endpoint.disabled:${app.id}:2`);
  expect(undocumentedPayloads(ops.events())).toEqual([]);
});

// When delivery disables an endpoint on its own: failing without a success for longer than
// outbound.disable_after_ms disables it with the reason recorded (its delivery then ends dead, and
// nothing more is sent); failures broken up by a success do not add up; and a 410 that answers an
// attempt made before the endpoint's config changed disables nothing (the compare-and-set on the
// version the attempt read), the endpoint delivering at its new URL after it.
import { expect, it } from "vitest";
import { admin } from "../integration/admin-fixtures.ts";
import { metricValue } from "../support/hooks.ts";
import {
  createEndpoint,
  endpointView,
  gateway,
  outboundConfig,
  publish,
  receiver,
  useOutboundTeardown,
  waitForDelivery,
} from "../support/outbound.ts";
import { eventually } from "../support/test-gateway.ts";

useOutboundTeardown();

/** Fast retries with room for many attempts, and a breaker that stays out of the way. */
const manyRetries = {
  timeout_ms: 2000,
  retry: { base_ms: 50, max_ms: 100, max_attempts: 100, max_elapsed_ms: 60_000 },
  breaker: { failures: 10_000 },
};

it("disables an endpoint failing without a success for longer than disable_after_ms, saying why", async () => {
  const rx = await receiver({ fallback: 500 });
  const gw = await gateway(outboundConfig({ ...manyRetries, disable_after_ms: 600 }));
  const ep = await createEndpoint(gw, { url: `${rx.url}/hook`, event_types: ["*"] });
  await publish(gw, { id: "fail-1", type: "order.paid", payload: {} });

  const disabled = await eventually(
    async () => {
      const view = await endpointView(gw, ep.id);
      return view.disabled === true ? view : undefined;
    },
    10_000,
    "the endpoint to be disabled",
  );
  expect(disabled.disabled_reason).toMatch(/^failing without a success since /);
  const since = Date.parse(String(disabled.failing_since));
  expect(Date.parse(String(disabled.disabled_at)) - since).toBeGreaterThanOrEqual(600);
  // Failing since the first failed attempt (recorded before its retry went out), not a later one.
  expect(rx.requests.length).toBeGreaterThanOrEqual(2);
  expect(since).toBeGreaterThanOrEqual(rx.requests[0]!.receivedAt);
  expect(since).toBeLessThanOrEqual(rx.requests[1]!.receivedAt);
  expect(await metricValue(gw, "switchyard_outbound_endpoints_disabled_total", { tenant: "-" })).toBe(1);

  // The delivery ends dead on the disabled endpoint, and nothing more is sent to it.
  const dead = await waitForDelivery(gw, "fail-1", ep.id, "dead", 5_000);
  expect(dead.last_error).toMatch(/endpoint is disabled: failing without a success/);
  const sent = rx.requests.length;
  await new Promise((r) => setTimeout(r, 400));
  expect(rx.requests).toHaveLength(sent);
}, 30_000);

it("does not add up failures a success came between", async () => {
  const rx = await receiver({ script: [500, 500, 200], fallback: 200 });
  const gw = await gateway(outboundConfig({ ...manyRetries, disable_after_ms: 800 }));
  const ep = await createEndpoint(gw, { url: `${rx.url}/hook`, event_types: ["*"] });
  await publish(gw, { id: "flaky-1", type: "order.paid", payload: {} });
  await waitForDelivery(gw, "flaky-1", ep.id, "delivered");
  const firstFailure = rx.requests[0]!.receivedAt;
  expect((await endpointView(gw, ep.id)).failing_since).toBeUndefined();

  // Past disable_after_ms since the first failure, the endpoint fails again, then recovers.
  await new Promise((r) => setTimeout(r, Math.max(0, firstFailure + 1000 - Date.now())));
  rx.script(500, 500, 200);
  await publish(gw, { id: "flaky-2", type: "order.paid", payload: {} });
  await waitForDelivery(gw, "flaky-2", ep.id, "delivered");
  expect(rx.requests).toHaveLength(6);
  expect(await endpointView(gw, ep.id)).toMatchObject({ disabled: false });
}, 30_000);

it("a 410 to an attempt made before the endpoint's URL changed disables nothing", async () => {
  let answerGone = (): void => undefined;
  const gone = new Promise<void>((resolve) => (answerGone = resolve));
  const old = await receiver({ script: [{ status: 410, after: gone }], fallback: 200 });
  const moved = await receiver({ fallback: 200 });
  const gw = await gateway(outboundConfig({ timeout_ms: 5000 }));
  const ep = await createEndpoint(gw, { url: `${old.url}/hook`, event_types: ["*"] });
  await publish(gw, { id: "move-1", type: "order.paid", payload: {} });
  await old.waitForRequests(1, 10_000); // the attempt has read the endpoint at version 1

  const patched = await admin(gw, "PATCH", `/v1/endpoints/${ep.id}`, { body: { url: `${moved.url}/hook` } });
  expect(patched.status).toBe(200);
  expect(patched.json.version).toBe(2);
  answerGone();
  const dead = await waitForDelivery(gw, "move-1", ep.id, "dead", 10_000);
  expect(dead).toMatchObject({ last_status_code: 410, attempts: 1 });
  expect(await endpointView(gw, ep.id)).toMatchObject({ disabled: false, version: 2 });
  expect(await metricValue(gw, "switchyard_outbound_endpoints_disabled_total", { tenant: "-" })).toBe(0);

  // Still subscribed, at its new URL.
  await publish(gw, { id: "move-2", type: "order.paid", payload: {} });
  const [arrived] = await moved.waitForRequests(1, 10_000);
  expect(arrived!.headers["webhook-id"]).toBe("move-2");
  expect(old.requests).toHaveLength(1);
}, 30_000);

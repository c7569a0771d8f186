// Operational events about breakers, DLQ sizes and replays, end to end on real Redis, and who receives
// them: each arrives at the operator's `switchyard.*` endpoint and at its tenant's, verified with the
// `standardwebhooks` package, and never at another tenant's. `switchyard.dlq.threshold` is measured to
// come at most once per interval per index.
import { expect, it } from "vitest";
import { admin } from "../integration/admin-fixtures.ts";
import { type OpsEndpoint, opsEndpoint } from "../support/operational.ts";
import {
  createEndpoint,
  gateway,
  outboundConfig,
  receiver,
  useOutboundTeardown,
} from "../support/outbound.ts";
import { sendHook } from "../support/hooks.ts";
import { eventually, testConfig } from "../support/test-gateway.ts";
import { undocumentedPayloads } from "../support/operational-schema-check.ts";

useOutboundTeardown();

const ACME = "acme-token-0123456789abcdef";
const GLOBEX = "globex-token-0123456789abcd";
const tokens = {
  admin: {
    tokens: [
      "test-admin-token-0123456789",
      { token: ACME, tenant: "acme" },
      { token: GLOBEX, tenant: "globex" },
    ],
  },
};
const retry = { base_ms: 20, max_ms: 50, max_attempts: 10, max_elapsed_ms: 60_000 };

/** An operational endpoint for the operator, one for acme and one for globex. */
async function scopes(
  gw: Parameters<typeof opsEndpoint>[0],
): Promise<Record<"operator" | "acme" | "globex", OpsEndpoint>> {
  return {
    operator: await opsEndpoint(gw),
    acme: await opsEndpoint(gw, { tenant: "acme" }),
    globex: await opsEndpoint(gw, { tenant: "globex" }),
  };
}

const publishAs = async (gw: Parameters<typeof admin>[0], token: string, body: Record<string, unknown>) => {
  const res = await admin(gw, "POST", "/v1/events", { body, token });
  expect(res.status).toBe(202);
};

it("sends breaker.opened and .closed about a tenant's endpoint to the operator and that tenant only", async () => {
  const gw = await gateway(
    outboundConfig(
      { retry, breaker: { failures: 2, open_ms: 300, max_open_ms: 1000 } },
      { ...tokens, operational: { flush_ms: 20 } },
    ),
  );
  const ops = await scopes(gw);
  const flaky = await receiver({ script: [500, 500], fallback: 200 });
  const app = await createEndpoint(gw, {
    url: `${flaky.url}/orders`,
    event_types: ["order.*"],
    tenant: "acme",
  });
  await publishAs(gw, ACME, { id: "o-1", type: "order.paid", payload: {} });

  for (const scope of [ops.operator, ops.acme]) {
    await eventually(() => scope.of("switchyard.breaker.closed").length === 1, 15_000, "breaker.closed");
    const [opened] = scope.of("switchyard.breaker.opened");
    const [closed] = scope.of("switchyard.breaker.closed");
    expect(scope.of("switchyard.breaker.opened")).toHaveLength(1);
    expect(opened?.data).toMatchObject({
      target: { kind: "endpoint", id: app.id },
      tenant: "acme",
      state: "open",
      open_period_ms: 300,
    });
    expect(closed?.data).toMatchObject({
      target: { kind: "endpoint", id: app.id },
      tenant: "acme",
      state: "closed",
    });
    expect(opened?.id).toMatch(new RegExp(`^op:breaker\\.opened:endpoint:${app.id}:\\d+-\\d+$`));
  }
  // The same facts (same event ids) in both scopes.
  expect(ops.acme.of("switchyard.breaker.opened")[0]?.id).toBe(
    ops.operator.of("switchyard.breaker.opened")[0]?.id,
  );
  // Isolation: globex hears only of its own endpoint's creation; acme of its own endpoints only.
  await new Promise((r) => setTimeout(r, 300));
  expect(ops.globex.events().map((e) => [e.type, e.data.endpoint_id])).toEqual([
    ["switchyard.endpoint.created", ops.globex.id],
  ]);
  const acmeAbout = ops.acme
    .events()
    .flatMap((e) => (e.type === "switchyard.endpoint.created" ? [e.data.endpoint_id] : []));
  expect(acmeAbout.sort()).toEqual([ops.acme.id, app.id].sort());
  const operatorAbout = ops.operator.of("switchyard.endpoint.created").map((e) => e.data.endpoint_id);
  expect(operatorAbout.sort()).toEqual([ops.operator.id, ops.acme.id, ops.globex.id, app.id].sort());
  expect(undocumentedPayloads(ops.operator.events())).toEqual([]);
}, 30_000);

it("sends breaker.opened and .closed about a sink to the operator, with no tenant", async () => {
  const down = await receiver({ script: [500, 500], fallback: 200 });
  const gw = await gateway(
    testConfig({
      ...tokens,
      outbound: { allow_private: true },
      operational: { flush_ms: 20 },
      dispatch: { retry, breaker: { failures: 2, open_ms: 300, max_open_ms: 1000 } },
      sinks: { forward: { type: "http", url: `${down.url}/in` } },
      sources: { shop: { verify: { type: "none" }, sinks: ["forward"] } },
    }),
  );
  const ops = await scopes(gw);
  await sendHook(gw, "shop", JSON.stringify({ order: 1 }));
  await eventually(() => ops.operator.of("switchyard.breaker.closed").length === 1, 15_000, "breaker.closed");
  expect(ops.operator.of("switchyard.breaker.opened").map((e) => e.data)).toEqual([
    {
      target: { kind: "sink", name: "forward" },
      state: "open",
      open_period_ms: 300,
      at: expect.any(String) as unknown,
    },
  ]);
  expect(ops.operator.of("switchyard.breaker.closed")[0]?.data).toMatchObject({
    target: { kind: "sink", name: "forward" },
    state: "closed",
    open_period_ms: 300,
  });
  expect(undocumentedPayloads(ops.operator.events())).toEqual([]);
  // A sink's facts are the operator's: no tenant hears of them.
  expect(
    [...ops.acme.events(), ...ops.globex.events()].filter((e) => e.type.startsWith("switchyard.breaker.")),
  ).toEqual([]);
}, 30_000);

it("sends dlq.threshold at most once per interval per index, and replay.finished, to the operator and the tenant only", async () => {
  const gw = await gateway(
    outboundConfig(
      { retry: { ...retry, max_attempts: 1 } },
      {
        ...tokens,
        recovery: { interval_ms: 200 },
        operational: { flush_ms: 20, dlq_threshold: 3, dlq_threshold_interval_s: 2 },
      },
    ),
  );
  const ops = await scopes(gw);
  const app = await createEndpoint(gw, {
    url: `${(await receiver({ fallback: 500 })).url}/orders`,
    event_types: ["order.*"],
    tenant: "acme",
  });
  // The receiver answers 500: each event dies at its first attempt.
  const rx = await receiver({ fallback: 500 });
  expect(
    (await admin(gw, "PATCH", `/v1/endpoints/${app.id}`, { body: { url: `${rx.url}/orders` } })).status,
  ).toBe(200);
  for (const id of ["d-1", "d-2", "d-3"]) await publishAs(gw, ACME, { id, type: "order.paid", payload: {} });

  const thresholds = (scope: OpsEndpoint, index: string) =>
    scope.of("switchyard.dlq.threshold").filter((e) => e.data.index === index);
  const indexes = ["all", `endpoint:${app.id}`, "tenant:acme"];
  await eventually(
    () => indexes.every((i) => thresholds(ops.operator, i).length >= 1),
    15_000,
    "dlq.threshold",
  );
  const firstAt = Date.now();
  // Ticks run every 200 ms; within the 2 s interval no index says it again.
  await new Promise((r) => setTimeout(r, 1500));
  for (const i of indexes) expect(thresholds(ops.operator, i), i).toHaveLength(1);
  await eventually(
    () => indexes.every((i) => thresholds(ops.operator, i).length >= 2),
    10_000,
    "second dlq.threshold",
  );
  const gaps = indexes.map((i) => {
    const [a, b] = thresholds(ops.operator, i).map((e) => Date.parse(String(e.data.at)));
    return (b ?? 0) - (a ?? 0);
  });
  console.log(
    `dlq.threshold: first after the deaths, repeats ${gaps.join(", ")} ms apart (interval 2000 ms); waited ${Date.now() - firstAt} ms`,
  );
  for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(2000);
  expect(thresholds(ops.operator, "tenant:acme")[0]?.data).toMatchObject({
    size: 3,
    threshold: 3,
    tenant: "acme",
  });
  expect(thresholds(ops.operator, `endpoint:${app.id}`)[0]?.data).toMatchObject({ tenant: "acme" });
  expect(thresholds(ops.operator, "all")[0]?.data).not.toHaveProperty("tenant");
  // The tenant hears of its own indexes, not of `all`; globex hears of none.
  expect(thresholds(ops.acme, "all")).toEqual([]);
  expect(thresholds(ops.acme, "tenant:acme").length).toBeGreaterThanOrEqual(1);
  expect(ops.globex.of("switchyard.dlq.threshold")).toEqual([]);

  // Replay the tenant's dead deliveries to a receiver that now accepts them.
  rx.setFallback(200);
  const replay = await admin(gw, "POST", "/v1/replays", {
    body: { filter: { endpoint: app.id } },
    token: ACME,
  });
  expect(replay.status).toBe(202);
  const replayId = String(replay.json.id);
  for (const scope of [ops.operator, ops.acme]) {
    const [finished] = await eventually(
      () => scope.of("switchyard.replay.finished").length === 1 && scope.of("switchyard.replay.finished"),
      15_000,
      "replay.finished",
    );
    expect(finished?.id).toBe(`op:replay.finished:${replayId}`);
    expect(finished?.data).toMatchObject({
      replay_id: replayId,
      tenant: "acme",
      state: "done",
      filter: { endpoint: app.id },
      matched: 3,
      moved: 3,
      failed: 0,
    });
  }
  expect(ops.globex.of("switchyard.replay.finished")).toEqual([]);
  // Everything received (delivery.exhausted included) is as documented.
  expect(undocumentedPayloads(ops.operator.events())).toEqual([]);
}, 60_000);

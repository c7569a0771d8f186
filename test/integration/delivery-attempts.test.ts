// Attempt history and endpoint health through the API, on real Redis: an outbound delivery that failed
// twice then succeeded shows its three attempts (status, excerpt, signature headers), newest last; its
// endpoint lists it and counts the attempts; an inbound delivery shows its attempts the same way; and a
// tenant-bound token sees only its tenant's deliveries, endpoints and stats (the rest answer 404).
import { expect, it } from "vitest";
import { admin } from "./admin-fixtures.ts";
import { sendHook } from "../support/hooks.ts";
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

const ACME = "acme-token-0123456789abcdef";
const GLOBEX = "globex-token-0123456789abcdef";
const retry = { base_ms: 10, max_ms: 20, max_attempts: 5, max_elapsed_ms: 10_000 };

it("a delivery keeps its attempts (status, excerpt, signature), its endpoint lists it and counts them, per tenant", async () => {
  const rx = await receiver({
    script: [
      { status: 503, body: "down for maintenance" },
      { status: 500, body: "x".repeat(3000) },
      { status: 200, body: "thanks" },
    ],
  });
  const gw = await gateway(
    outboundConfig(
      { retry },
      {
        admin: {
          tokens: [
            "test-admin-token-0123456789",
            { token: ACME, tenant: "acme" },
            { token: GLOBEX, tenant: "globex" },
          ],
        },
      },
    ),
  );
  const ep = await createEndpoint(gw, { url: rx.url, event_types: ["order.*"], tenant: "acme" });
  const other = await createEndpoint(gw, { url: rx.url, event_types: ["order.*"], tenant: "globex" });
  const published = await admin(gw, "POST", "/v1/events", {
    body: { id: "o-1", type: "order.paid", payload: { n: 1 } },
    token: ACME,
  });
  expect(published.status).toBe(202);
  const row = await eventually(
    async () => {
      const res = await admin(gw, "GET", "/v1/events/o-1/deliveries", { token: ACME });
      const found = (res.json.data as { endpoint_id: string; state: string; delivery_id: string }[])[0];
      return found?.state === "delivered" ? found : undefined;
    },
    10_000,
    "o-1 delivered",
  );

  const one = await admin(gw, "GET", `/v1/deliveries/${row.delivery_id}`, { token: ACME });
  expect(one.status).toBe(200);
  expect(one.json).toMatchObject({
    id: row.delivery_id,
    direction: "outbound",
    target: ep.id,
    event_id: "o-1",
    event_type: "order.paid",
    tenant: "acme",
    state: "delivered",
    attempt_count: 3,
    last_status_code: 200,
  });
  const attempts = one.json.attempts as Record<string, any>[];
  expect(attempts.map((a) => a.status_code)).toEqual([503, 500, 200]);
  expect(attempts[0]).toMatchObject({ error_class: "transient", response_excerpt: "down for maintenance" });
  expect(attempts[1]?.response_excerpt).toBe("x".repeat(1024)); // at most 1 KiB of a body
  expect(attempts[2]).toMatchObject({ response_excerpt: "thanks" });
  expect(attempts[2]?.error_class).toBeUndefined();
  for (const a of attempts) {
    expect(typeof a.duration_ms).toBe("number");
    expect(Date.parse(a.at)).toBeGreaterThan(0);
    // The signature headers the receiver got on that attempt.
    expect(a.signature_headers["webhook-id"]).toBe("o-1");
    expect(a.signature_headers["webhook-signature"]).toMatch(/^v1,/);
  }
  const sent = rx.requests.map((r) => r.headers["webhook-signature"]);
  expect(attempts.map((a) => a.signature_headers["webhook-signature"])).toEqual(sent);

  // The endpoint lists it and counts its attempts.
  const listed = await admin(gw, "GET", `/v1/endpoints/${ep.id}/deliveries`, { token: ACME });
  expect(listed.status).toBe(200);
  expect(listed.json.data).toHaveLength(1);
  expect(listed.json.data[0]).toMatchObject({ id: row.delivery_id, state: "delivered", attempts: 3 });
  const dead = await admin(gw, "GET", `/v1/endpoints/${ep.id}/deliveries?state=dead`, { token: ACME });
  expect(dead.json.data).toEqual([]);
  const stats = await eventually(
    async () => {
      const res = await admin(gw, "GET", `/v1/endpoints/${ep.id}/stats`, { token: ACME });
      return res.json.last_hour?.attempts === 3 ? res : undefined;
    },
    5000,
    "three attempts counted",
  );
  expect(stats.json).toMatchObject({
    endpoint_id: ep.id,
    last_hour: { attempts: 3, successes: 1 },
    last_day: { attempts: 3, successes: 1 },
    last_status: 200,
    breaker: { state: "closed" },
    disabled: false,
  });
  expect(stats.json.last_hour.success_rate).toBeCloseTo(1 / 3);
  expect(stats.json.last_hour.p50_ms).toBeGreaterThanOrEqual(0);

  // Another tenant sees none of it; a bad id is a 404 too, a bad filter a 400.
  for (const path of [
    `/v1/deliveries/${row.delivery_id}`,
    `/v1/endpoints/${ep.id}/deliveries`,
    `/v1/endpoints/${ep.id}/stats`,
  ])
    expect((await admin(gw, "GET", path, { token: GLOBEX })).status, path).toBe(404);
  expect((await admin(gw, "GET", `/v1/endpoints/${other.id}/stats`, { token: ACME })).status).toBe(404);
  expect((await admin(gw, "GET", "/v1/deliveries/dl_nope")).status).toBe(404);
  expect((await admin(gw, "GET", `/v1/endpoints/${ep.id}/deliveries?state=lost`)).status).toBe(400);
  // The unbound token sees every tenant's.
  expect((await admin(gw, "GET", `/v1/deliveries/${row.delivery_id}`)).status).toBe(200);
}, 30_000);

it("an endpoint's deliveries page newest first by cursor, filtered by since", async () => {
  const rx = await receiver();
  const gw = await gateway(outboundConfig());
  const ep = await createEndpoint(gw, { url: rx.url, event_types: ["order.*"] });
  for (let i = 0; i < 5; i++) {
    await publish(gw, { id: `p-${i}`, type: "order.paid", payload: { i } });
    await new Promise((r) => setTimeout(r, 5));
  }
  const seen: string[] = [];
  let cursor: string | null = "";
  while (cursor !== null) {
    const page = await admin(gw, "GET", `/v1/endpoints/${ep.id}/deliveries?limit=2&cursor=${cursor}`);
    expect(page.status).toBe(200);
    seen.push(...(page.json.data as { event_id: string }[]).map((d) => d.event_id));
    cursor = page.json.next_cursor as string | null;
  }
  expect(seen).toEqual(["p-4", "p-3", "p-2", "p-1", "p-0"]);
  const all = await admin(gw, "GET", `/v1/endpoints/${ep.id}/deliveries`);
  const createdAt = (all.json.data as { created_at: string }[]).map((d) => Date.parse(d.created_at));
  const since = createdAt[1] as number;
  const recent = await admin(gw, "GET", `/v1/endpoints/${ep.id}/deliveries?since=${since}`);
  expect((recent.json.data as unknown[]).length).toBe(createdAt.filter((t) => t >= since).length);
}, 30_000);

it("an inbound delivery shows its attempts too", async () => {
  const rx = await receiver({ script: [{ status: 502, body: "bad gateway" }, 204] });
  const gw = await gateway(
    outboundConfig(
      {},
      {
        dispatch: { retry },
        sinks: { web: { type: "http", url: `${rx.url}/in` } },
        sources: { src: { verify: { type: "none" }, sinks: ["web"] } },
      },
    ),
  );
  const hook = await sendHook(gw, "src", JSON.stringify({ a: 1 }));
  const view = await eventually(
    async () => {
      const res = await admin(gw, "GET", `/v1/hooks/${hook}`);
      return res.json.sinks?.web?.state === "delivered" ? res.json.sinks.web : undefined;
    },
    10_000,
    "the hook delivered",
  );
  const one = await admin(gw, "GET", `/v1/deliveries/${view.delivery_id}`);
  expect(one.json).toMatchObject({ direction: "inbound", target: "web", hook_id: hook, source: "src" });
  expect((one.json.attempts as { status_code: number }[]).map((a) => a.status_code)).toEqual([502, 204]);
  expect(one.json.attempts[0]).toMatchObject({ response_excerpt: "bad gateway", error_class: "transient" });
}, 30_000);

// The served /openapi.json against the running gateway (real Redis, real sockets): every route the app
// serves is in the document, every documented operation is exercised, and every answer met on the way
// (successes and refusals: 400, 401, 403, 404, 409, 413, 415) has a documented status and a body that
// matches its schema, strictly (a field the document does not declare is a failure).
import { afterAll, beforeAll, expect, it } from "vitest";
import { type OpenApiDocument, answerProblems, templateOf } from "../support/openapi-conformance.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";
import {
  ADMIN_TOKEN,
  type TestGateway,
  eventually,
  startTestGateway,
  testConfig,
} from "../support/test-gateway.ts";

const TENANT_TOKEN = "tenant-token-acme-0123456789";
let gw: TestGateway;
let gone: Receiver;
let doc: OpenApiDocument;
const problems: string[] = [];
/** `METHOD /template status` of every answer checked. */
const seen = new Set<string>();

beforeAll(async () => {
  gone = await startReceiver({ fallback: 410 });
  gw = await startTestGateway(
    testConfig({
      http: { max_body_bytes: 64 * 1024 },
      admin: { tokens: [ADMIN_TOKEN, { token: TENANT_TOKEN, tenant: "acme" }] },
      outbound: {
        allow_private: true,
        timeout_ms: 2000,
        event_types: [{ name: "order.paid", description: "An order was paid." }],
      },
      sinks: { log: { type: "log" }, gone: { type: "http", url: `${gone.url}/in` } },
      sources: {
        src: { verify: { type: "none" }, dedup: "body", sinks: ["log"], allow_non_durable: true },
        dead: { verify: { type: "none" }, sinks: ["gone"], allow_non_durable: true },
        signed: {
          verify: { type: "github", secrets: ["s3cret-s3cret"] },
          on_verify_failure: "quarantine",
          sinks: ["log"],
          allow_non_durable: true,
        },
        tenanted: { verify: { type: "none" }, tenants: ["acme"], sinks: ["log"], allow_non_durable: true },
      },
    }),
  );
  doc = (await (await fetch(`${gw.url}/openapi.json`)).json()) as OpenApiDocument;
}, 60_000);

afterAll(async () => {
  await gw?.stop();
  await gone?.close();
});

interface CallOptions {
  readonly body?: unknown;
  readonly raw?: string;
  readonly token?: string | null;
  readonly headers?: Record<string, string>;
}

/** Send a request to the gateway, check its answer against the document, and return it. */
async function call(
  method: string,
  path: string,
  opts: CallOptions = {},
): Promise<{ status: number; json: any }> {
  const headers: Record<string, string> = { ...opts.headers };
  const token = opts.token === undefined ? ADMIN_TOKEN : opts.token;
  if (token !== null && path.startsWith("/v1/")) headers.authorization = `Bearer ${token}`;
  if (method !== "GET" && path.startsWith("/v1/") && !("content-type" in headers))
    headers["content-type"] = "application/json";
  const res = await fetch(`${gw.url}${path}`, {
    method,
    headers,
    ...(opts.raw !== undefined ? { body: opts.raw } : {}),
    ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
  });
  const type = res.headers.get("content-type");
  const text = await res.text();
  const json = type?.startsWith("application/json") && text.length > 0 ? JSON.parse(text) : undefined;
  problems.push(
    ...answerProblems(doc, method, path, res.status, type, json ?? (text.length > 0 ? text : undefined)),
  );
  seen.add(`${method} ${templateOf(doc, method, path) ?? path} ${res.status}`);
  return { status: res.status, json };
}

it("lists every route the app serves", () => {
  const routes = gw.gateway.app!.routes;
  // Not API, so not in the document: middleware (/*, /v1/*) and the tenant portal under /portal, whose
  // pages and cookie exchange (/portal/session) are for browsers, and whose /portal/api/v1/* serves the
  // very /v1 routes the document declares, behind a portal session instead of a token.
  const missing = routes
    .filter(
      (r) =>
        r.path !== "/*" &&
        !(r.method === "ALL" && r.path.endsWith("/*") && r.path.startsWith("/v1")) &&
        r.path !== "/portal" &&
        !r.path.startsWith("/portal/"),
    )
    .map((r) => ({ method: r.method, path: r.path.replace(/\/\*$/, "").replace(/:(\w+)/g, "{$1}") }))
    .filter(({ method, path }) => {
      const ops = doc.paths[path];
      return !ops || (method !== "ALL" && ops[method.toLowerCase()] === undefined);
    });
  expect(missing).toEqual([]);
  expect(routes.length).toBeGreaterThan(30);
});

it("answers as documented on every route, refusals included", async () => {
  // Operations and ingest.
  for (const path of ["/healthz", "/readyz", "/metrics", "/asyncapi.json", "/openapi.json"])
    expect((await call("GET", path)).status).toBe(200);
  const hook = await call("POST", "/webhooks/src", { raw: '{"n":1}' });
  expect(hook.status).toBe(202);
  expect((await call("POST", "/webhooks/src", { raw: '{"n":1}' })).status).toBe(200);
  expect((await call("POST", "/webhooks/acme/tenanted", { raw: "{}" })).status).toBe(202);
  expect((await call("POST", "/webhooks/globex/tenanted", { raw: "{}" })).status).toBe(404);
  expect((await call("POST", "/webhooks/nope", { raw: "{}" })).status).toBe(404);
  expect((await call("POST", "/webhooks/signed", { raw: "{}" })).status).toBe(401);
  expect((await call("POST", "/webhooks/src", { raw: "x".repeat(70_000) })).status).toBe(413);
  const board = await fetch(`${gw.url}/admin/queues`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  problems.push(
    ...answerProblems(
      doc,
      "GET",
      "/admin/queues",
      board.status,
      board.headers.get("content-type"),
      undefined,
    ),
  );
  await board.body?.cancel();
  seen.add(`GET /admin/queues ${board.status}`);

  // Hooks, claims, quarantine.
  const hookId = hook.json.id as string;
  expect((await call("GET", `/v1/hooks/${hookId}?include=body`)).status).toBe(200);
  expect((await call("GET", `/v1/hooks/${hookId}`, { token: null })).status).toBe(401);
  expect((await call("GET", "/v1/hooks/hk_00000000000000000000000000")).status).toBe(404);
  expect((await call("GET", `/v1/claims/${hookId}`)).status).toBe(200);
  expect((await call("GET", "/v1/claims/nope")).status).toBe(404);
  const quarantined = await call("GET", "/v1/quarantine");
  expect(quarantined.json.data).toHaveLength(1);
  expect((await call("GET", `/v1/quarantine/${quarantined.json.data[0].id}?include=body`)).status).toBe(200);
  expect((await call("GET", "/v1/quarantine/hk_00000000000000000000000000")).status).toBe(404);
  expect((await call("GET", "/v1/quarantine?limit=0")).status).toBe(400);

  // Endpoints.
  const created = await call("POST", "/v1/endpoints", {
    body: { url: `${gone.url}/out`, event_types: ["order.*"] },
  });
  expect(created.status).toBe(201);
  const ep = created.json.id as string;
  expect((await call("POST", "/v1/endpoints", { body: { url: "ftp://x/", event_types: [] } })).status).toBe(
    400,
  );
  expect((await call("POST", "/v1/endpoints", { raw: "{nope" })).status).toBe(400);
  expect((await call("POST", "/v1/endpoints", { raw: `"${"x".repeat(300_000)}"` })).status).toBe(413);
  expect(
    (await call("POST", "/v1/endpoints", { body: {}, headers: { "content-type": "text/plain" } })).status,
  ).toBe(415);
  expect(
    (await call("POST", "/v1/endpoints", { body: {}, headers: { origin: "https://evil.example" } })).status,
  ).toBe(403);
  expect((await call("GET", "/v1/endpoints?limit=1")).status).toBe(200);
  expect((await call("GET", "/v1/endpoints?cursor=%%%")).status).toBe(400);
  expect((await call("GET", `/v1/endpoints/${ep}`)).status).toBe(200);
  expect((await call("GET", "/v1/endpoints/ep_00000000000000000000000000")).status).toBe(404);
  expect((await call("PATCH", `/v1/endpoints/${ep}`, { body: { description: "d" } })).status).toBe(200);
  expect((await call("PATCH", `/v1/endpoints/${ep}`, { body: { tenant: "x" } })).status).toBe(400);
  expect((await call("POST", `/v1/endpoints/${ep}/rotate-secret`)).status).toBe(200);
  const spare = (await call("POST", "/v1/endpoints", { body: { url: `${gone.url}/x`, event_types: ["x"] } }))
    .json;
  expect((await call("DELETE", `/v1/endpoints/${spare.id}`)).status).toBe(204);
  expect((await call("DELETE", `/v1/endpoints/${spare.id}`)).status).toBe(404);

  // Events: the 410 endpoint makes outbound dead deliveries (the event, then a test event), the `dead`
  // source an inbound one.
  const published = await call("POST", "/v1/events", {
    body: { id: "ord-1", type: "order.paid", payload: { n: 1 } },
  });
  expect(published.status).toBe(202);
  expect(
    (await call("POST", "/v1/events", { body: { id: "ord-1", type: "order.other", payload: 1 } })).status,
  ).toBe(409);
  expect(
    (await call("POST", "/v1/events", { body: { type: "no spaces", payload: 1, extra: 1 } })).status,
  ).toBe(400);
  const forOther = await call("POST", "/v1/events", {
    body: { type: "a.b", payload: 1, tenant: "globex" },
    token: TENANT_TOKEN,
  });
  expect(forOther.status).toBe(404);
  expect((await call("GET", "/v1/events/ord-1")).status).toBe(200);
  expect((await call("GET", "/v1/events/none")).status).toBe(404);
  const eventDeliveries = await call("GET", "/v1/events/ord-1/deliveries");
  expect(eventDeliveries.status).toBe(200);

  // Delivery history, endpoint health, test events.
  const none = "ep_00000000000000000000000000";
  expect((await call("GET", `/v1/deliveries/${eventDeliveries.json.data[0].delivery_id}`)).status).toBe(200);
  expect((await call("GET", "/v1/deliveries/dl_00000000000000000000000000")).status).toBe(404);
  expect((await call("GET", `/v1/endpoints/${ep}/deliveries?limit=1`)).status).toBe(200);
  expect((await call("GET", `/v1/endpoints/${ep}/deliveries?state=bogus`)).status).toBe(400);
  expect((await call("GET", `/v1/endpoints/${none}/deliveries`)).status).toBe(404);
  expect((await call("GET", `/v1/endpoints/${ep}/stats`)).status).toBe(200);
  expect((await call("GET", `/v1/endpoints/${none}/stats`)).status).toBe(404);
  expect((await call("POST", `/v1/endpoints/${ep}/test-event`)).status).toBe(202);
  expect((await call("POST", `/v1/endpoints/${ep}/test-event`, { body: { type: "a.*" } })).status).toBe(400);
  expect((await call("POST", `/v1/endpoints/${none}/test-event`)).status).toBe(404);

  // The event catalog and portal links.
  expect((await call("GET", "/v1/event-types")).status).toBe(200);
  const declared = { name: "invoice.created", schema: { type: "object" }, example: { n: 1 } };
  expect((await call("POST", "/v1/event-types", { body: declared })).status).toBe(201);
  expect((await call("POST", "/v1/event-types", { body: declared })).status).toBe(200);
  expect((await call("POST", "/v1/event-types", { body: { name: "a.*" } })).status).toBe(400);
  expect((await call("POST", "/v1/event-types", { body: { name: "order.paid" } })).status).toBe(409);
  expect((await call("POST", "/v1/event-types", { body: declared, token: TENANT_TOKEN })).status).toBe(403);
  expect((await call("POST", "/v1/portal/sessions", { body: { tenant: "acme" } })).status).toBe(201);
  expect((await call("POST", "/v1/portal/sessions", { body: { tenant: "acme", ttl_s: 1 } })).status).toBe(
    400,
  );
  const otherTenant = { body: { tenant: "globex" }, token: TENANT_TOKEN };
  expect((await call("POST", "/v1/portal/sessions", otherTenant)).status).toBe(404);
  const inbound = await call("POST", "/webhooks/dead", { raw: '{"d":1}' });
  expect(inbound.status).toBe(202);
  await eventually(
    async () => (await call("GET", "/v1/dlq")).json.data.length === 3,
    15_000,
    "three dead deliveries (the event, the test event, the hook)",
  );
  expect((await call("GET", "/v1/dlq?limit=0")).status).toBe(400);
  expect((await call("GET", "/v1/breakers")).status).toBe(200);

  // Replays, then purging what is dead again.
  const replay = await call("POST", "/v1/replays", { body: { filter: { endpoint: ep }, rate_per_s: 100 } });
  expect(replay.status).toBe(202);
  expect((await call("POST", "/v1/replays", { body: { rate_per_s: 0 } })).status).toBe(400);
  expect((await call("GET", "/v1/replays")).status).toBe(200);
  expect((await call("GET", "/v1/replays?state=bogus")).status).toBe(400);
  expect((await call("GET", `/v1/replays/${replay.json.id}`)).status).toBe(200);
  expect((await call("GET", "/v1/replays/rp_00000000000000000000000000")).status).toBe(404);
  expect((await call("PATCH", `/v1/replays/${replay.json.id}`, { body: { state: "bogus" } })).status).toBe(
    400,
  );
  expect(
    (await call("PATCH", `/v1/replays/${replay.json.id}`, { body: { state: "cancelled" } })).status,
  ).toBe(200);
  expect((await call("PATCH", `/v1/replays/${replay.json.id}`, { body: { state: "paused" } })).status).toBe(
    409,
  );
  const entry = await eventually(async () => (await call("GET", "/v1/dlq?source=dead")).json.data[0]);
  expect((await call("DELETE", `/v1/dlq/${entry.id}`, { headers: { "content-type": "" } })).status).toBe(415);
  expect((await call("DELETE", `/v1/dlq/${entry.id}`)).status).toBe(204);
  expect((await call("DELETE", `/v1/dlq/${entry.id}`)).status).toBe(404);

  expect(problems).toEqual([]);
  // Every documented operation was met with a success.
  const succeeded = new Set([...seen].filter((s) => / 2\d\d$/.test(s)).map((s) => s.replace(/ \d+$/, "")));
  const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
  );
  expect(operations.filter((op) => !succeeded.has(op))).toEqual([]);
}, 60_000);

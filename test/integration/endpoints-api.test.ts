// /v1/endpoints through the app (no socket) on the real Redis: validation, the SSRF check at registration,
// secrets shown once, paging, and tenant-bound tokens confined to their tenant.
import { EventCatalogStore } from "../../src/store/event-catalog-store.ts";
import type { LookupAddress } from "node:dns";
import type { Hono } from "hono";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TokenRegistry, requireAdmin } from "../../src/api/admin-auth.ts";
import { createApp } from "../../src/api/app.ts";
import { endpointRoutes } from "../../src/api/routes/endpoints.ts";
import { generateSecret } from "../../src/domain/signing.ts";
import { silentLogger } from "../../src/observability/logger.ts";
import { type EndpointScratch, endpointScratch } from "../support/endpoint-redis.ts";

const ADMIN = "admin-token-0123456789";
const ACME = "acme-token-0123456789";
const GLOBEX = "globex-token-0123456789";

/** Test DNS: `*.internal.example` is private, everything else public. */
async function resolve(host: string): Promise<LookupAddress[]> {
  return [{ address: host.endsWith(".internal.example") ? "10.1.2.3" : "93.184.215.14", family: 4 }];
}

let s: EndpointScratch;
let app: Hono;

function build(allowPrivate: boolean): Hono {
  const auth = requireAdmin(
    new TokenRegistry([ADMIN, { token: ACME, tenant: "acme" }, { token: GLOBEX, tenant: "globex" }]),
  );
  const catalog = new EventCatalogStore(s.redis, s.keys, [], 1000);
  return createApp(
    [endpointRoutes({ endpoints: s.store, catalog, auth, allowPrivate, resolve })],
    silentLogger(),
  );
}

beforeEach(() => {
  s = endpointScratch();
  app = build(false);
});
afterEach(async () => {
  await s.cleanup();
});

async function call(
  method: string,
  path: string,
  opts: { body?: unknown; raw?: string; token?: string | null; to?: Hono } = {},
): Promise<{ status: number; json: any }> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  const token = opts.token === undefined ? ADMIN : opts.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  const body = opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
  const res = await (opts.to ?? app).request(path, {
    method,
    headers,
    ...(body !== undefined ? { body } : {}),
  });
  const text = await res.text();
  return { status: res.status, json: text.length > 0 ? JSON.parse(text) : undefined };
}

const valid = { url: "https://hooks.example.com/in", event_types: ["order.*"] };

describe("url_userinfo_shown", () => {
  it("masks the password of an endpoint URL in every answer, and refuses the mask sent back", async () => {
    const created = await call("POST", "/v1/endpoints", {
      body: { ...valid, url: "https://svc:hunter2-pass@hooks.example.com/in" },
    });
    expect(created.status).toBe(201);
    expect(created.json.url).toBe("https://svc:***@hooks.example.com/in");
    const got = await call("GET", `/v1/endpoints/${created.json.id}`);
    expect(got.json.url).toBe("https://svc:***@hooks.example.com/in");
    const listed = await call("GET", "/v1/endpoints");
    expect(JSON.stringify(listed.json)).not.toContain("hunter2");
    const back = await call("PATCH", `/v1/endpoints/${created.json.id}`, { body: { url: got.json.url } });
    expect(back.status).toBe(400);
    expect(back.json.error.message).toMatch(/^url: send the real password/);
  });
});

describe("POST /v1/endpoints", () => {
  it("creates an endpoint and shows its secret once", async () => {
    const res = await call("POST", "/v1/endpoints", {
      body: {
        ...valid,
        headers: { "X-Team": "billing", Authorization: "Bearer abc" },
        description: "billing",
      },
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      url: "https://hooks.example.com/in",
      event_types: ["order.*"],
      headers: { "x-team": "billing", authorization: "[redacted]" },
      disabled: false,
      version: 1,
      description: "billing",
    });
    expect(res.json.id).toMatch(/^ep_/);
    expect(res.json.secret).toMatch(/^whsec_/);
    expect(res.json.created_at).toMatch(/^\d{4}-\d\d-\d\dT/);

    const got = await call("GET", `/v1/endpoints/${res.json.id}`);
    expect(got.status).toBe(200);
    expect(got.json.secret).toBeUndefined();
    expect(JSON.stringify(got.json)).not.toContain(res.json.secret.slice(6));
    const listed = await call("GET", "/v1/endpoints");
    expect(JSON.stringify(listed.json)).not.toContain("whsec_");
    // The real header value is kept for delivery.
    expect((await s.store.get(res.json.id))?.headers.authorization).toBe("Bearer abc");
  });

  it("takes a caller's secret of 24–64 bytes", async () => {
    const secret = generateSecret(40);
    const res = await call("POST", "/v1/endpoints", { body: { ...valid, secret } });
    expect(res.status).toBe(201);
    expect(res.json.secret).toBe(secret);
    const short = await call("POST", "/v1/endpoints", { body: { ...valid, secret: generateSecret(16) } });
    expect(short.status).toBe(400);
    expect(short.json.error.message).toMatch(/^secret: must decode to 24–64 bytes/);
  });

  it.each([
    [{ ...valid, url: "ftp://example.com/" }, /^url: must be an absolute http or https URL/],
    [{ ...valid, url: "/relative" }, /^url: must be an absolute http/],
    [{ ...valid, event_types: [] }, /^event_types: must list at least one/],
    [{ ...valid, event_types: ["order.*.x"] }, /^event_types\.0: must be an event type/],
    [{ ...valid, event_types: Array.from({ length: 101 }, (_, i) => `t${i}`) }, /at most 100 patterns/],
    // duplicate_list_entries: a pattern listed twice is a mistake.
    [
      { ...valid, event_types: ["order.*", "a.b", "order.*"] },
      /^event_types\.2: "order\.\*" is listed twice/,
    ],
    [{ ...valid, headers: { Host: "x" } }, /^headers\.Host: is set by Switchyard/],
    [{ ...valid, headers: { "content-type": "x" } }, /^headers\.content-type:/],
    [{ ...valid, headers: { Connection: "close" } }, /^headers\.Connection: .*hop-by-hop/],
    [{ ...valid, headers: { "Webhook-Signature": "v1,x" } }, /^headers\.Webhook-Signature: webhook-\*/],
    [{ ...valid, headers: { "x-a": "a\r\nb: c" } }, /^headers\.x-a: value must be/],
    [{ ...valid, headers: { "bad name": "x" } }, /not a valid header name/],
    [{ ...valid, rate_limit_per_s: 0 }, /^rate_limit_per_s: must be positive/],
    [{ ...valid, rate_limit_per_s: 1.5 }, /^rate_limit_per_s: must be an integer/],
    [{ ...valid, rate_limit_per_s: 100_001 }, /^rate_limit_per_s: must be at most 100000/],
    [{ ...valid, description: "x".repeat(1025) }, /^description: must be at most 1024/],
    [{ ...valid, tenant: "no/slash" }, /^tenant: must match/],
    [{ ...valid, extra: 1 }, /^extra: unknown field/],
    [{ event_types: ["a"] }, /^url: required$/],
  ])("refuses %j", async (body, message) => {
    const res = await call("POST", "/v1/endpoints", { body });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("invalid_request");
    expect(res.json.error.message).toMatch(message);
  });

  it("refuses a body that is not JSON", async () => {
    const res = await call("POST", "/v1/endpoints", { raw: "{nope" });
    expect(res).toMatchObject({ status: 400, json: { error: { message: "the body must be JSON" } } });
  });

  it("refuses internal destinations, unless allowPrivate", async () => {
    for (const url of [
      "http://127.0.0.1:8080/",
      "http://2130706433/",
      "http://[::1]/",
      "https://svc.internal.example/hook",
      "http://169.254.169.254/",
    ]) {
      const res = await call("POST", "/v1/endpoints", { body: { ...valid, url } });
      expect(res.status, url).toBe(400);
      expect(res.json.error.message, url).toMatch(/^url: refused: /);
    }
    const open = build(true);
    const res = await call("POST", "/v1/endpoints", {
      body: { ...valid, url: "http://127.1:8080/x" },
      to: open,
    });
    expect(res.status).toBe(201);
    expect(res.json.url).toBe("http://127.0.0.1:8080/x");
    const meta = await call("POST", "/v1/endpoints", {
      body: { ...valid, url: "http://metadata/" },
      to: open,
    });
    expect(meta.status).toBe(400);
  });

  it("needs an admin token", async () => {
    expect((await call("POST", "/v1/endpoints", { body: valid, token: null })).status).toBe(401);
    expect((await call("GET", "/v1/endpoints", { token: "wrong-token-0123456789" })).status).toBe(401);
  });
});

describe("PATCH, DELETE and rotate-secret", () => {
  async function created(extra: Record<string, unknown> = {}, token = ADMIN): Promise<any> {
    const res = await call("POST", "/v1/endpoints", { body: { ...valid, ...extra }, token });
    expect(res.status).toBe(201);
    return res.json;
  }

  it("patches fields, bumping the version only for what receivers see", async () => {
    const e = await created();
    const described = await call("PATCH", `/v1/endpoints/${e.id}`, {
      body: { description: "x", rate_limit_per_s: 5 },
    });
    expect(described.json).toMatchObject({ version: 1, description: "x", rate_limit_per_s: 5 });
    const moved = await call("PATCH", `/v1/endpoints/${e.id}`, {
      body: { url: "https://other.example.com/", event_types: ["user.created"], description: null },
    });
    expect(moved.status).toBe(200);
    expect(moved.json).toMatchObject({
      version: 2,
      url: "https://other.example.com/",
      event_types: ["user.created"],
    });
    expect(moved.json.description).toBeUndefined();
    const off = await call("PATCH", `/v1/endpoints/${e.id}`, { body: { disabled: true } });
    expect(off.json).toMatchObject({
      version: 3,
      disabled: true,
      disabled_reason: "disabled by an operator",
    });
    expect(await s.store.match(undefined, "user.created")).toEqual([]);
  });

  it("validates patches like creations, and never changes the tenant", async () => {
    const e = await created();
    for (const [body, message] of [
      [{ url: "http://10.0.0.1/" }, /^url: refused/],
      [{ event_types: ["*", "a b"] }, /^event_types\.1:/],
      [{ tenant: "acme" }, /^tenant: cannot be changed/],
      [{ headers: { authorization: "[redacted]" } }, /send the real value/],
      [{ secret: generateSecret() }, /^secret: unknown field/],
    ] as const) {
      const res = await call("PATCH", `/v1/endpoints/${e.id}`, { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.error.message).toMatch(message);
    }
  });

  it("rotates the secret (generated or given), showing the new one once", async () => {
    const e = await created();
    const rotated = await call("POST", `/v1/endpoints/${e.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.json.secret).toMatch(/^whsec_/);
    expect(rotated.json.secret).not.toBe(e.secret);
    expect(rotated.json.version).toBe(2);
    const stored = await s.store.get(e.id);
    expect(stored?.previous_secrets.map((p) => p.secret)).toEqual([e.secret]);

    const mine = generateSecret(64);
    const given = await call("POST", `/v1/endpoints/${e.id}/rotate-secret`, { body: { secret: mine } });
    expect(given.json.secret).toBe(mine);
    const again = await call("POST", `/v1/endpoints/${e.id}/rotate-secret`, { body: { secret: mine } });
    expect(again.status).toBe(400);
    expect(again.json.error.message).toMatch(/current secret/);
    const bad = await call("POST", `/v1/endpoints/${e.id}/rotate-secret`, { body: { secret: "whsec_abc" } });
    expect(bad.status).toBe(400);
  });

  it("deletes, then answers 404", async () => {
    const e = await created();
    expect((await call("DELETE", `/v1/endpoints/${e.id}`)).status).toBe(204);
    expect((await call("GET", `/v1/endpoints/${e.id}`)).status).toBe(404);
    expect((await call("DELETE", `/v1/endpoints/${e.id}`)).status).toBe(404);
    expect((await call("GET", "/v1/endpoints/not-an-id")).status).toBe(404);
    expect((await s.keysLeft()).filter((k) => k.includes(e.id))).toEqual([]);
  });
});

describe("GET /v1/endpoints", () => {
  it("pages with an opaque cursor and validates limit and cursor", async () => {
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await call("POST", "/v1/endpoints", { body: valid })).json.id);
    made.sort(); // id order: creation order to the millisecond
    const first = await call("GET", "/v1/endpoints?limit=2");
    expect(first.json.data.map((e: any) => e.id)).toEqual(made.slice(0, 2));
    const rest: string[] = [];
    let cursor: string | null = first.json.next_cursor;
    while (cursor) {
      const page = await call("GET", `/v1/endpoints?limit=2&cursor=${cursor}`);
      rest.push(...page.json.data.map((e: any) => e.id));
      cursor = page.json.next_cursor;
    }
    expect(rest).toEqual(made.slice(2));
    expect((await call("GET", "/v1/endpoints")).json).toMatchObject({ next_cursor: null });
    for (const q of ["limit=0", "limit=1001", "limit=x", "cursor=garbage"])
      expect((await call("GET", `/v1/endpoints?${q}`)).status, q).toBe(400);
  });
});

describe("tenant-bound tokens", () => {
  it("create in their tenant, see and change only their tenant's endpoints", async () => {
    const mine = await call("POST", "/v1/endpoints", { body: valid, token: ACME });
    expect(mine.status).toBe(201);
    expect(mine.json.tenant).toBe("acme");
    const same = await call("POST", "/v1/endpoints", { body: { ...valid, tenant: "acme" }, token: ACME });
    expect(same.status).toBe(201);
    const other = await call("POST", "/v1/endpoints", { body: { ...valid, tenant: "globex" }, token: ACME });
    expect(other.status).toBe(400);
    expect(other.json.error.message).toMatch(/^tenant: /);

    const theirs = await call("POST", "/v1/endpoints", { body: valid, token: GLOBEX });
    const global = await call("POST", "/v1/endpoints", { body: { ...valid, tenant: "globex" } });
    const untenanted = await call("POST", "/v1/endpoints", { body: valid });
    expect(global.json.tenant).toBe("globex");
    expect(untenanted.json.tenant).toBeUndefined();

    const id = theirs.json.id;
    for (const [method, path, body] of [
      ["GET", `/v1/endpoints/${id}`, undefined],
      ["PATCH", `/v1/endpoints/${id}`, { description: "x" }],
      ["DELETE", `/v1/endpoints/${id}`, undefined],
      ["POST", `/v1/endpoints/${id}/rotate-secret`, undefined],
      ["GET", `/v1/endpoints/${untenanted.json.id}`, undefined],
    ] as const) {
      const res = await call(method, path, { body, token: ACME });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.json.error.code).toBe("not_found");
    }
    expect((await s.store.get(id))?.description).toBeUndefined();

    const listed = await call("GET", "/v1/endpoints", { token: ACME });
    expect(listed.json.data.map((e: any) => e.id).sort()).toEqual([mine.json.id, same.json.id].sort());
    expect((await call("GET", "/v1/endpoints?tenant=globex", { token: ACME })).status).toBe(400);
    expect((await call("GET", "/v1/endpoints?tenant=acme", { token: ACME })).json.data).toHaveLength(2);

    const all = await call("GET", "/v1/endpoints");
    expect(all.json.data).toHaveLength(5);
    const globex = await call("GET", "/v1/endpoints?tenant=globex");
    expect(globex.json.data.map((e: any) => e.id).sort()).toEqual([id, global.json.id].sort());
    expect(
      (await call("PATCH", `/v1/endpoints/${mine.json.id}`, { body: { description: "y" }, token: ACME }))
        .status,
    ).toBe(200);
  });
});

// The portal's magic links and sessions through the app (no socket) on the real Redis: a link is minted
// by an admin token of the tenant (or an unscoped one), used once, and expires; the session it becomes
// sees only its tenant, a read-only one changes nothing, every write is same-origin JSON, and the pages
// carry the strict CSP with portal.embed_origins as frame-ancestors.
import { afterEach, describe, expect, it } from "vitest";
import { configSchema } from "../../src/config/schema.ts";
import { PortalSessionStore } from "../../src/store/portal-session-store.ts";
import { admin } from "./admin-fixtures.ts";
import { type TestGateway, scratchRedis, startTestGateway, testConfig } from "../support/test-gateway.ts";

const ACME_TOKEN = "acme-admin-token-0123456789";
const GLOBEX_TOKEN = "globex-admin-token-0123456789";

let gw: TestGateway | undefined;
afterEach(async () => {
  await gw?.stop();
  gw = undefined;
});

async function start(extra: Record<string, unknown> = {}): Promise<TestGateway> {
  gw = await startTestGateway(
    testConfig({
      outbound: { allow_private: true },
      sinks: { log: { type: "log" } },
      sources: { src: { verify: { type: "none" }, sinks: ["log"], allow_non_durable: true } },
      admin: {
        tokens: [
          "test-admin-token-0123456789",
          { token: ACME_TOKEN, tenant: "acme" },
          { token: GLOBEX_TOKEN, tenant: "globex" },
        ],
      },
      ...extra,
    }),
  );
  return gw;
}

/** A request as the portal page's script sends it: the session cookie, and JSON for a body. */
async function asPage(
  g: TestGateway,
  method: string,
  path: string,
  opts: { cookie?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Response> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.cookie) headers.cookie = opts.cookie;
  if (opts.body !== undefined) headers["content-type"] ??= "application/json";
  return g.gateway.app!.request(path, {
    method,
    headers,
    ...(opts.body !== undefined
      ? { body: typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body) }
      : {}),
  });
}

async function mint(g: TestGateway, body: Record<string, unknown>, token?: string): Promise<string> {
  const res = await admin(g, "POST", "/v1/portal/sessions", { body, ...(token ? { token } : {}) });
  expect(res.status).toBe(201);
  return new URL(res.json.url as string).hash.slice(1);
}

/** Use a link token; answers the session cookie (`name=value`). */
async function signIn(g: TestGateway, token: string): Promise<string> {
  const res = await asPage(g, "POST", "/portal/session", { body: { token } });
  expect(res.status).toBe(200);
  const cookie = res.headers.get("set-cookie") ?? "";
  return cookie.split(";", 1)[0] ?? "";
}

describe("portal links", () => {
  it("answers a URL whose fragment carries the token, and only a token of that tenant (or unscoped) may mint", async () => {
    const g = await start();
    const res = await admin(g, "POST", "/v1/portal/sessions", { body: { tenant: "acme", ttl_s: 600 } });
    expect(res.status).toBe(201);
    const url = new URL(res.json.url as string);
    expect(url.pathname).toBe("/portal");
    expect(url.search).toBe("");
    expect(url.hash).toMatch(/^#[A-Za-z0-9_-]{43}$/);
    const expires = Date.parse(res.json.expires_at as string);
    expect(expires - Date.now()).toBeGreaterThan(590_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(600_000);

    expect(
      (await admin(g, "POST", "/v1/portal/sessions", { body: { tenant: "acme" }, token: ACME_TOKEN })).status,
    ).toBe(201);
    expect(
      (await admin(g, "POST", "/v1/portal/sessions", { body: { tenant: "acme" }, token: GLOBEX_TOKEN }))
        .status,
    ).toBe(404);
    expect(
      (await admin(g, "POST", "/v1/portal/sessions", { body: { tenant: "acme" }, token: null })).status,
    ).toBe(401);
    for (const bad of [
      { tenant: "a:b" },
      { tenant: "acme", ttl_s: 59 },
      { tenant: "acme", ttl_s: 8 * 86_400 },
      { tenant: "acme", x: 1 },
    ]) {
      expect((await admin(g, "POST", "/v1/portal/sessions", { body: bad })).status).toBe(400);
    }
  });

  it("is used once: a second use of the same link is refused", async () => {
    const g = await start();
    const token = await mint(g, { tenant: "acme" });
    const first = await asPage(g, "POST", "/portal/session", { body: { token } });
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ tenant: "acme", read_only: false });
    const second = await asPage(g, "POST", "/portal/session", { body: { token } });
    expect(second.status).toBe(401);
    expect(second.headers.get("set-cookie")).toBeNull();
    expect((await asPage(g, "POST", "/portal/session", { body: { token: "x".repeat(43) } })).status).toBe(
      401,
    );
  });

  it("sets the session cookie HttpOnly, SameSite=Strict, Path=/portal, and Secure behind an https public URL", async () => {
    let g = await start();
    let res = await asPage(g, "POST", "/portal/session", {
      body: { token: await mint(g, { tenant: "acme" }) },
    });
    const plain = res.headers.get("set-cookie") ?? "";
    expect(plain).toMatch(/^switchyard_portal=[A-Za-z0-9_-]{43};/);
    expect(plain).toContain("HttpOnly");
    expect(plain).toContain("SameSite=Strict");
    expect(plain).toContain("Path=/portal");
    expect(plain).not.toContain("Secure");
    await g.stop();

    g = await start({ http: { port: 0, host: "127.0.0.1", public_url: "https://hooks.example.com" } });
    const minted = await admin(g, "POST", "/v1/portal/sessions", { body: { tenant: "acme" } });
    expect(minted.json.url).toMatch(/^https:\/\/hooks\.example\.com\/portal#/);
    res = await asPage(g, "POST", "/portal/session", {
      body: { token: new URL(minted.json.url as string).hash.slice(1) },
    });
    expect(res.headers.get("set-cookie")).toContain("Secure");
  });

  it("expires: neither the link nor its session outlive expires_at, and Redis drops both then", async () => {
    const config = testConfig({ sinks: {}, sources: {} });
    const { redis, keys, cleanup } = scratchRedis(config);
    let now = Date.now();
    const store = new PortalSessionStore(redis, keys, () => now);
    try {
      const expiresAt = now + 60_000;
      const late = await store.mintLink({ tenant: "acme", readOnly: false, expiresAt });
      const early = await store.mintLink({ tenant: "acme", readOnly: true, expiresAt });
      const [linkKey] = await redis.keys(`{${config.redis.prefix}:portal}:link:*`);
      expect(await redis.pttl(linkKey!)).toBeGreaterThan(55_000);
      const used = await store.exchange(early);
      expect(used?.grant).toEqual({ tenant: "acme", readOnly: true, expiresAt });
      expect(await store.session(used!.session)).toEqual(used!.grant);
      const [sessionKey] = await redis.keys(`{${config.redis.prefix}:portal}:session:*`);
      expect(await redis.pttl(sessionKey!)).toBeGreaterThan(55_000);
      now = expiresAt;
      expect(await store.exchange(late)).toBeUndefined();
      expect(await store.session(used!.session)).toBeUndefined();
    } finally {
      await cleanup();
    }
  });
});

describe("portal sessions", () => {
  it("see only their tenant: another tenant's endpoint is a 404, on the API and on the page", async () => {
    const g = await start();
    const theirs = await admin(g, "POST", "/v1/endpoints", {
      body: { url: "http://127.0.0.1:9/in", event_types: ["*"] },
      token: GLOBEX_TOKEN,
    });
    expect(theirs.status).toBe(201);
    const cookie = await signIn(g, await mint(g, { tenant: "acme" }));
    const created = await asPage(g, "POST", "/portal/api/v1/endpoints", {
      cookie,
      body: { url: "http://127.0.0.1:9/mine", event_types: ["order.*"] },
    });
    expect(created.status).toBe(201);
    const mine = (await created.json()) as { id: string; tenant: string; secret: string };
    expect(mine.tenant).toBe("acme");
    expect(mine.secret).toMatch(/^whsec_/);

    const list = (await (await asPage(g, "GET", "/portal/api/v1/endpoints", { cookie })).json()) as {
      data: { id: string }[];
    };
    expect(list.data.map((e) => e.id)).toEqual([mine.id]);
    const id = theirs.json.id as string;
    expect((await asPage(g, "GET", `/portal/api/v1/endpoints/${id}`, { cookie })).status).toBe(404);
    expect(
      (await asPage(g, "PATCH", `/portal/api/v1/endpoints/${id}`, { cookie, body: { disabled: true } }))
        .status,
    ).toBe(404);
    expect(
      (
        await asPage(g, "DELETE", `/portal/api/v1/endpoints/${id}`, {
          cookie,
          headers: { "content-type": "application/json" },
        })
      ).status,
    ).toBe(404);
    const pageRes = await asPage(g, "GET", `/portal/endpoints/${id}`, { cookie });
    expect(pageRes.status).toBe(404);
    expect(await pageRes.text()).not.toContain("127.0.0.1:9/in");
    expect((await asPage(g, "GET", "/portal/api/v1/endpoints")).status).toBe(401);
  });

  it("read-only: every write answers 403 and nothing changes", async () => {
    const g = await start();
    const ep = await admin(g, "POST", "/v1/endpoints", {
      body: { url: "http://127.0.0.1:9/in", event_types: ["*"], tenant: "acme" },
    });
    const cookie = await signIn(g, await mint(g, { tenant: "acme", read_only: true }));
    const id = ep.json.id as string;
    expect((await asPage(g, "GET", `/portal/api/v1/endpoints/${id}`, { cookie })).status).toBe(200);
    const writes: [string, string, unknown][] = [
      ["POST", "/portal/api/v1/endpoints", { url: "http://127.0.0.1:9/x", event_types: ["*"] }],
      ["PATCH", `/portal/api/v1/endpoints/${id}`, { disabled: true }],
      ["POST", `/portal/api/v1/endpoints/${id}/rotate-secret`, {}],
      ["POST", `/portal/api/v1/endpoints/${id}/test-event`, {}],
      ["DELETE", `/portal/api/v1/endpoints/${id}`, {}],
      ["POST", "/portal/api/v1/replays", { filter: { endpoint: id } }],
      ["POST", "/portal/api/v1/events", { type: "order.paid", payload: {} }],
    ];
    for (const [method, path, body] of writes) {
      const res = await asPage(g, method, path, { cookie, body });
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    const after = await admin(g, "GET", `/v1/endpoints/${id}`);
    expect(after.json).toMatchObject({ disabled: false, version: ep.json.version });
    expect((await admin(g, "GET", "/v1/endpoints?tenant=acme")).json.data).toHaveLength(1);
  });

  it("refuses a write from another site's page, and one that is not JSON (the page's cookie alone is not enough)", async () => {
    const g = await start();
    const cookie = await signIn(g, await mint(g, { tenant: "acme" }));
    const body = { url: "http://127.0.0.1:9/x", event_types: ["*"] };
    const foreign = await asPage(g, "POST", "/portal/api/v1/endpoints", {
      cookie,
      body,
      headers: { origin: "https://evil.example" },
    });
    expect(foreign.status).toBe(403);
    const form = await asPage(g, "POST", "/portal/api/v1/endpoints", {
      cookie,
      body: "url=http://127.0.0.1:9/x",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(form.status).toBe(415);
    const exchange = await asPage(g, "POST", "/portal/session", {
      body: { token: "y".repeat(43) },
      headers: { origin: "https://evil.example" },
    });
    expect(exchange.status).toBe(403);
    expect((await admin(g, "GET", "/v1/endpoints?tenant=acme")).json.data).toHaveLength(0);
  });
});

describe("portal pages", () => {
  it("send a strict CSP, frame-ancestors 'none' by default", async () => {
    const g = await start();
    const res = await asPage(g, "GET", "/portal");
    expect(res.status).toBe(200);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("unsafe-inline");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    const text = await res.text();
    expect(text).not.toMatch(/<script>|<script [^>]*>[^<]/);
    expect(text).not.toMatch(/https?:\/\//);
    const js = await asPage(g, "GET", "/portal/app.js");
    expect(js.headers.get("content-type")).toMatch(/^text\/javascript/);
  });

  it("let portal.embed_origins frame them", async () => {
    const g = await start({
      portal: { embed_origins: ["https://app.example.com", "https://admin.example.com"] },
    });
    const res = await asPage(g, "GET", "/portal");
    expect(res.headers.get("content-security-policy")).toContain(
      "frame-ancestors https://app.example.com https://admin.example.com",
    );
    expect(res.headers.get("x-frame-options")).toBeNull();
  });

  it("refuse a config with an embed origin that is not an origin, or an unknown portal key", () => {
    const parse = (portal: unknown) =>
      configSchema().safeParse({ ...testConfig({ sinks: {}, sources: {} }), portal }).success;
    expect(parse({ embed_origins: ["https://app.example.com"] })).toBe(true);
    expect(parse({ embed_origins: ["https://app.example.com/path"] })).toBe(false);
    expect(parse({ embed_origins: ["*"] })).toBe(false);
    expect(parse({ embed_orgins: [] })).toBe(false);
  });
});

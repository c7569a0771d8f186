// GET /v1/claims/:id serves bytes a provider chose: never as a page a browser renders, never cached.
// Queue consumers get signed, expiring URLs (no admin token needed); admins still use their token.
import { createHmac, randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, type TestGateway, startTestGateway, testConfig } from "../support/test-gateway.ts";

const ACME_TOKEN = "acme-claims-token-0123456789";
const OTHER_TOKEN = "other-claims-token-0123456789";

const gateways: TestGateway[] = [];
afterEach(async () => {
  for (const g of gateways.splice(0).reverse()) await g.stop();
});

function config(extra: { http?: Record<string, unknown>; prefix?: string } = {}) {
  const c = testConfig({
    http: extra.http,
    retention_s: 3600,
    admin: {
      tokens: [ADMIN_TOKEN, { token: ACME_TOKEN, tenant: "acme" }, { token: OTHER_TOKEN, tenant: "other" }],
    },
    sinks: { a: { type: "http", url: "http://127.0.0.1:9/a" } },
    sources: { src: { tenant: "acme", verify: { type: "none" }, sinks: ["a"], dedup_ttl_s: 3600 } },
  });
  return extra.prefix ? { ...c, redis: { ...c.redis, prefix: extra.prefix } } : c;
}

async function start(c = config()) {
  const gw = await startTestGateway(c, { roles: ["api"], listen: false });
  gateways.push(gw);
  return gw;
}

/** Store a hook whose body a browser would happily render, and return its id. */
async function storeHtmlHook(gw: TestGateway): Promise<{ id: string; body: Buffer }> {
  const body = Buffer.from(
    `<html><script>alert(document.cookie)</script>${randomBytes(8).toString("hex")}</html>`,
  );
  const res = await gw.gateway.app!.request("/webhooks/src", {
    method: "POST",
    body,
    headers: { "content-type": "text/html" },
  });
  expect(res.status).toBe(202);
  return { id: ((await res.json()) as { id: string }).id, body };
}

/** The deployment's claim key, as every process of it reads it from Redis. */
async function storedKey(gw: TestGateway): Promise<string> {
  const key = await gw.redis.get(gw.gateway.keys.claimSigningKey);
  expect(key).not.toBeNull();
  return key!;
}

const sign = (key: string, id: string, exp: number) =>
  createHmac("sha256", key).update(`${id}.${exp}`).digest("base64url");

const get = (gw: TestGateway, path: string, token?: string) =>
  gw.gateway.app!.request(path, { headers: token ? { authorization: `Bearer ${token}` } : {} });

describe("claims_render_in_browser", () => {
  it("serves the bytes as an attachment nobody sniffs, renders or caches", async () => {
    const gw = await start();
    const { id, body } = await storeHtmlHook(gw);
    const res = await get(gw, `/v1/claims/${id}`, ADMIN_TOKEN);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/octet-stream");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${id}.bin"`);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(Buffer.from(await res.arrayBuffer()).equals(body)).toBe(true);
  });
});

describe("signed claim URLs", () => {
  it("a valid, unexpired signature needs no admin token", async () => {
    const gw = await start();
    const { id, body } = await storeHtmlHook(gw);
    const exp = Math.floor(Date.now() / 1000) + 600;
    const res = await get(gw, `/v1/claims/${id}?exp=${exp}&sig=${sign(await storedKey(gw), id, exp)}`);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(body)).toBe(true);
  });

  it("a wrong, tampered, expired or foreign signature without a token is 401", async () => {
    const gw = await start();
    const { id } = await storeHtmlHook(gw);
    const { id: otherId } = await storeHtmlHook(gw);
    const key = await storedKey(gw);
    const now = Math.floor(Date.now() / 1000);
    const exp = now + 600;
    for (const query of [
      `exp=${exp}&sig=${sign("not-the-key-not-the-key-not-the-key", id, exp)}`,
      `exp=${exp + 1}&sig=${sign(key, id, exp)}`,
      `exp=${now - 1}&sig=${sign(key, id, now - 1)}`,
      `exp=${exp}&sig=${sign(key, otherId, exp)}`,
      `exp=${exp}&sig=AAAA`,
      `exp=${exp}&sig=`,
      `exp=soon&sig=${sign(key, id, exp)}`,
      `sig=${sign(key, id, exp)}`,
      `exp=${exp}`,
      "",
    ]) {
      const res = await get(gw, `/v1/claims/${id}?${query}`);
      expect(res.status, query).toBe(401);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
    }
  });

  it("an admin token still works, scoped to its tenant, whatever the signature", async () => {
    const gw = await start();
    const { id } = await storeHtmlHook(gw);
    const bad = `?exp=${Math.floor(Date.now() / 1000) + 600}&sig=AAAA`;
    expect((await get(gw, `/v1/claims/${id}${bad}`, ADMIN_TOKEN)).status).toBe(200);
    expect((await get(gw, `/v1/claims/${id}`, ACME_TOKEN)).status).toBe(200);
    expect((await get(gw, `/v1/claims/${id}`, OTHER_TOKEN)).status).toBe(404);
    expect((await get(gw, `/v1/claims/${id}`, "wrong-token-wrong-token")).status).toBe(401);
  });

  it("every process of a deployment shares one generated key; a configured key wins", async () => {
    const first = await start();
    const prefix = first.config.redis.prefix;
    const second = await start(config({ prefix }));
    const key = await storedKey(first);
    expect(key.length).toBeGreaterThanOrEqual(32);
    expect(await storedKey(second)).toBe(key);

    const { id } = await storeHtmlHook(first);
    const exp = Math.floor(Date.now() / 1000) + 60;
    expect((await get(second, `/v1/claims/${id}?exp=${exp}&sig=${sign(key, id, exp)}`)).status).toBe(200);

    const configured = "configured-claim-key-0123456789-abcdef";
    const third = await start(config({ prefix, http: { claim_signing_key: configured } }));
    expect((await get(third, `/v1/claims/${id}?exp=${exp}&sig=${sign(key, id, exp)}`)).status).toBe(401);
    expect((await get(third, `/v1/claims/${id}?exp=${exp}&sig=${sign(configured, id, exp)}`)).status).toBe(
      200,
    );
  });
});

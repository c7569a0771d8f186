// /webhooks/:tenant/:source names a tenant the sender chose: only tenants the source lists (or its
// fixed tenant) are accepted; any other is an unknown source, and nothing is stored.
import type { HookId } from "../../src/domain/ids.ts";
import { afterEach, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config/load.ts";
import { type TestGateway, startTestGateway, testConfig } from "../support/test-gateway.ts";

let gw: TestGateway | undefined;
afterEach(async () => {
  await gw?.stop();
  gw = undefined;
});

async function start() {
  gw = await startTestGateway(
    testConfig({
      sinks: { a: { type: "http", url: "http://127.0.0.1:9/a" } },
      sources: {
        multi: { verify: { type: "none" }, sinks: ["a"], tenants: ["acme", "globex"] },
        fixed: { verify: { type: "none" }, sinks: ["a"], tenant: "acme" },
        both: { verify: { type: "none" }, sinks: ["a"], tenant: "acme", tenants: ["globex"] },
        plain: { verify: { type: "none" }, sinks: ["a"] },
      },
    }),
    { roles: ["api"], listen: false },
  );
  return gw;
}

async function post(g: TestGateway, path: string, body = "{}") {
  const res = await g.gateway.app!.request(path, { method: "POST", body });
  return { status: res.status, json: (await res.json()) as Record<string, any> };
}

/** Sorted: KEYS answers in hash-table order, which changes when a background key is rewritten. */
async function storedKeys(g: TestGateway): Promise<string[]> {
  return (await g.redis.keys(`{${g.config.redis.prefix}[:}]*`)).sort();
}

async function tenantOf(g: TestGateway, id: string): Promise<string | undefined> {
  const meta = await g.redis.hget(g.gateway.keys.hook(id as HookId), "meta");
  return (JSON.parse(meta!) as { tenant?: string }).tenant;
}

describe("any_tenant_in_path", () => {
  it("accepts only a listed tenant or the fixed one", async () => {
    const g = await start();
    const cases: [string, string | undefined][] = [
      ["/webhooks/acme/multi", "acme"],
      ["/webhooks/globex/multi", "globex"],
      ["/webhooks/acme/fixed", "acme"],
      ["/webhooks/fixed", "acme"],
      ["/webhooks/acme/both", "acme"],
      ["/webhooks/globex/both", "globex"],
      ["/webhooks/plain", undefined],
    ];
    for (const [path, tenant] of cases) {
      const res = await post(g, path, JSON.stringify({ path }));
      expect(res.status, path).toBe(202);
      expect(await tenantOf(g, res.json.id), path).toBe(tenant);
    }
  });

  it("answers any other path tenant 404 unknown_source and stores nothing", async () => {
    const g = await start();
    const before = await storedKeys(g);
    for (const path of [
      "/webhooks/evil/multi",
      "/webhooks/ACME/multi",
      "/webhooks/globex/fixed",
      "/webhooks/other/both",
      "/webhooks/acme/plain",
    ]) {
      const res = await post(g, path);
      expect(res.status, path).toBe(404);
      expect(res.json.error.code, path).toBe("unknown_source");
    }
    expect(await storedKeys(g)).toEqual(before);
  });
});

describe("tenants validation", () => {
  const cfg = (tenants: string) => `
sinks: { out: { type: http, url: "http://localhost:9000/in" } }
sources: { s: { verify: { type: none }, sinks: [out], tenants: ${tenants} } }
`;
  it("takes names of the name grammar, without duplicates", () => {
    expect(parseConfig(cfg("[acme, globex]"), "x.yaml", {}).sources.s?.tenants).toEqual(["acme", "globex"]);
    expect(() => parseConfig(cfg('["a:b"]'), "x.yaml", {})).toThrow(/sources\.s\.tenants\[0\]/);
    expect(() => parseConfig(cfg("[acme, globex, acme]"), "x.yaml", {})).toThrow(
      /sources\.s\.tenants\[2\]: duplicate tenant "acme"/,
    );
  });
});

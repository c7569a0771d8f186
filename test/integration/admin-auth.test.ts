// Admin routes and tenant-bound tokens: no token is a 401 everywhere; a token bound to one tenant
// can neither read, list, purge nor replay another tenant's hooks (404 or empty, never 403).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Receiver, startReceiver } from "../support/receiver.ts";
import {
  ADMIN_TOKEN,
  type TestGateway,
  eventually,
  startTestGateway,
  testConfig,
} from "../support/test-gateway.ts";
import { admin, deadHooks, replayState } from "./admin-fixtures.ts";

const ACME = "acme-token-0123456789abcdef";

let rx: Receiver;
let gw: TestGateway;
let acmeHook: string;
let globexHook: string;

beforeAll(async () => {
  rx = await startReceiver({ fallback: 410 });
  gw = await startTestGateway(
    testConfig({
      admin: { tokens: [ADMIN_TOKEN, { token: ACME, tenant: "acme" }] },
      sinks: { out: { type: "http", url: `${rx.url}/in` } },
      sources: {
        a: { tenant: "acme", verify: { type: "none" }, sinks: ["out"] },
        g: { tenant: "globex", verify: { type: "none" }, sinks: ["out"] },
      },
    }),
  );
  [acmeHook] = (await deadHooks(gw, "a", 1)) as [string];
  [globexHook] = (await deadHooks(gw, "g", 1)) as [string];
});

afterAll(async () => {
  await gw.stop();
  await rx.close();
});

describe("admin auth", () => {
  it.each([
    ["GET", "/v1/hooks/hk_00000000000000000000000000"],
    ["GET", "/v1/dlq"],
    ["DELETE", "/v1/dlq/x"],
    ["POST", "/v1/replays"],
    ["GET", "/v1/replays/rp_00000000000000000000000000"],
    ["PATCH", "/v1/replays/rp_00000000000000000000000000"],
  ])("%s %s answers 401 without a token, or with a wrong one", async (method, path) => {
    const body = method === "GET" ? undefined : {};
    const none = await admin(gw, method, path, { token: null, body });
    expect(none.status).toBe(401);
    expect(none.json.error.code).toBe("unauthorized");
    expect((await admin(gw, method, path, { token: "not-a-token-at-all-000", body })).status).toBe(401);
  });

  it("a tenant token reads its own hooks and gets 404 for another tenant's", async () => {
    const own = await admin(gw, "GET", `/v1/hooks/${acmeHook}`, { token: ACME });
    expect(own.status).toBe(200);
    expect(own.json).toMatchObject({ id: acmeHook, source: "a", tenant: "acme" });
    expect(own.json.sinks.out).toMatchObject({ state: "dead", attempts: 1, error_class: "permanent" });
    expect(own.json.body_base64).toBeUndefined();

    const other = await admin(gw, "GET", `/v1/hooks/${globexHook}`, { token: ACME });
    expect(other.status).toBe(404);
    expect(other.json.error.code).toBe("not_found");
    // The global token sees every tenant.
    expect((await admin(gw, "GET", `/v1/hooks/${globexHook}`)).status).toBe(200);
  });

  it("shows the body only when asked, and answers 404 for junk ids", async () => {
    const withBody = await admin(gw, "GET", `/v1/hooks/${acmeHook}?include=body`, { token: ACME });
    const body = JSON.parse(Buffer.from(withBody.json.body_base64 as string, "base64").toString("utf8"));
    expect(body).toMatchObject({ source: "a" });
    expect(withBody.json.size).toBe(Buffer.from(withBody.json.body_base64 as string, "base64").length);
    for (const junk of ["nope", "hk_x", "hk_ILLEGALCHARS0000000000000", "../../etc"]) {
      expect((await admin(gw, "GET", `/v1/hooks/${junk}`)).status).toBe(404);
    }
  });

  it("a tenant token lists only its tenant's DLQ entries", async () => {
    const all = await admin(gw, "GET", "/v1/dlq");
    expect(all.json.data.map((e: any) => e.hook_id).sort()).toEqual([acmeHook, globexHook].sort());
    const mine = await admin(gw, "GET", "/v1/dlq", { token: ACME });
    expect(mine.json.data.map((e: any) => e.hook_id)).toEqual([acmeHook]);
    const theirs = await admin(gw, "GET", "/v1/dlq?source=g", { token: ACME });
    expect(theirs.status).toBe(200);
    expect(theirs.json.data).toEqual([]);
  });

  it("a tenant token cannot purge another tenant's entry", async () => {
    const del = await admin(gw, "DELETE", `/v1/dlq/${globexHook}-out`, { token: ACME });
    expect(del.status).toBe(404);
    expect((await admin(gw, "GET", "/v1/dlq?source=g")).json.data).toHaveLength(1);
  });

  it("a tenant token replays only its tenant's entries and sees only its own replays", async () => {
    rx.setFallback(200);
    // Naming the other tenant's entry explicitly matches nothing.
    const byId = await admin(gw, "POST", "/v1/replays", {
      token: ACME,
      body: { filter: { ids: [`${globexHook}-out`] } },
    });
    expect(byId.status).toBe(202);
    expect(await replayState(gw, byId.json.id, "done")).toMatchObject({ matched: 0, moved: 0 });

    const created = await admin(gw, "POST", "/v1/replays", { token: ACME, body: { filter: {} } });
    expect(created.status).toBe(202);
    expect(created.json.id).toMatch(/^rp_/);
    const done = await replayState(gw, created.json.id, "done");
    expect(done).toMatchObject({ tenant: "acme", matched: 1, moved: 1, failed: 0 });
    await eventually(() => rx.requests.some((r) => r.headers["x-switchyard-replay-id"] === created.json.id));
    const replayed = rx.requests.filter((r) => r.headers["x-switchyard-replay-id"] !== undefined);
    expect(replayed.map((r) => r.headers["x-switchyard-id"])).toEqual([acmeHook]);
    // The other tenant's entry is still dead.
    expect((await admin(gw, "GET", "/v1/dlq")).json.data.map((e: any) => e.hook_id)).toEqual([globexHook]);

    // Replays are tenant-scoped too: the global token's replay is invisible to acme.
    const global = await admin(gw, "POST", "/v1/replays", { body: { filter: { source: "nothing-here" } } });
    expect((await admin(gw, "GET", `/v1/replays/${global.json.id}`, { token: ACME })).status).toBe(404);
    expect(
      (await admin(gw, "PATCH", `/v1/replays/${global.json.id}`, { token: ACME, body: { state: "paused" } }))
        .status,
    ).toBe(404);
    expect((await admin(gw, "GET", `/v1/replays/${created.json.id}`)).status).toBe(200);
  });
});

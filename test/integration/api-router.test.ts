// Regression: Bull Board's routes were merged into the API's router, and one of them
// (`…/:queueName/:jobId/logs`) is a pattern Hono's RegExpRouter refuses, so every request, each
// ingest included, was matched by the slower trie router. The board is now an app of its own that
// the API hands its paths to; it must still answer under the API's auth and error rules.
import { afterEach, expect, it } from "vitest";
import { onLedgerEngine } from "../support/queued.ts";
import { ADMIN_TOKEN, type TestGateway, startTestGateway, testConfig } from "../support/test-gateway.ts";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

async function gateway(): Promise<TestGateway> {
  const gw = await startTestGateway(
    testConfig({
      admin: { tokens: [ADMIN_TOKEN, { token: "acme-token-0123456789abcdef", tenant: "acme" }] },
      sinks: { s: { type: "http", url: "http://127.0.0.1:9/unused" } },
      sources: { src: { verify: { type: "none" }, sinks: ["s"] } },
    }),
    { roles: ["api"] },
  );
  cleanups.push(() => gw.stop());
  return gw;
}

it("matches every API request with Hono's RegExpRouter, Bull Board mounted", async () => {
  const gw = await gateway();
  const app = gw.gateway.app;
  if (!app) throw new Error("no app");
  expect((await app.request("/webhooks/src", { method: "POST", body: "{}" })).status).toBe(202);
  expect(app.router.name).toBe("SmartRouter + RegExpRouter");
});

it("answers Bull Board's paths under the admin auth, with the API's error bodies", async () => {
  const gw = await gateway();
  const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
  const denied = await fetch(`${gw.url}/admin/queues`);
  expect(denied.status).toBe(401);
  expect(((await denied.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
  const tenant = await fetch(`${gw.url}/admin/queues/api/queues`, bearer("acme-token-0123456789abcdef"));
  expect(tenant.status).toBe(404);
  expect(((await tenant.json()) as { error: { code: string } }).error.code).toBe("not_found");
  const page = await fetch(`${gw.url}/admin/queues`, bearer(ADMIN_TOKEN));
  expect(page.status).toBe(200);
  expect(await page.text()).toContain("<html");
  const api = await fetch(`${gw.url}/admin/queues/api/queues`, bearer(ADMIN_TOKEN));
  expect(api.status).toBe(200);
  const { queues } = (await api.json()) as { queues: { name: string }[] };
  const names = queues.map((q) => q.name);
  expect(names).toEqual(expect.arrayContaining(["replays", "maintenance"]));
  // The ledger engine's delivery queues are not BullMQ queues, so only the BullMQ engine's are on the board.
  if (onLedgerEngine(gw)) expect(names).not.toContain("sink-s");
  else expect(names).toContain("sink-s");
});

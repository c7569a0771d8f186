// GET /v1/breakers across processes: a worker-only gateway's sink breaker, opened by a failing sink,
// is seen by an API-only gateway on the same Redis (read from the breaker's own key); an endpoint's
// shared breaker is listed once it opens; a sink breaker stays visible with no worker running.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Receiver, startReceiver } from "../support/receiver.ts";
import {
  ADMIN_TOKEN,
  type TestGateway,
  eventually,
  startTestGateway,
  testConfig,
} from "../support/test-gateway.ts";
import { admin } from "./admin-fixtures.ts";

const ACME_TOKEN = "acme-admin-token-0123456789";
let failing: Receiver;
let fine: Receiver;
let web: TestGateway;
let worker: TestGateway;

beforeAll(async () => {
  failing = await startReceiver({ fallback: 503 });
  fine = await startReceiver({ fallback: 200 });
  const config = testConfig({
    admin: { tokens: [ADMIN_TOKEN, { token: ACME_TOKEN, tenant: "acme" }] },
    dispatch: {
      retry: { base_ms: 20, max_ms: 50, max_attempts: 50, max_elapsed_ms: 60_000 },
      breaker: { failures: 3, open_ms: 60_000, max_open_ms: 60_000 },
    },
    outbound: { allow_private: true, timeout_ms: 1000, breaker: { failures: 2, open_ms: 60_000 } },
    sinks: {
      bad: { type: "http", url: `${failing.url}/in` },
      good: { type: "http", url: `${fine.url}/in` },
    },
    sources: { src: { verify: { type: "none" }, sinks: ["bad", "good"] } },
  });
  web = await startTestGateway(config, { roles: ["api"] });
  worker = await startTestGateway(config, { roles: ["dispatch"] });
});

afterAll(async () => {
  await worker.stop();
  await web.stop();
  await failing.close();
  await fine.close();
});

const breakers = async (token?: string) => {
  const res = await admin(web, "GET", "/v1/breakers", token === undefined ? {} : { token });
  expect(res.status).toBe(200);
  return res.json;
};

describe("GET /v1/breakers", () => {
  it("shows a worker process's sink breakers to the API process", async () => {
    const closed = await breakers();
    expect(closed.sinks.map((s: { sink: string; state: string }) => [s.sink, s.state])).toEqual([
      ["bad", "closed"],
      ["good", "closed"],
    ]);

    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${web.url}/webhooks/src`, { method: "POST", body: `{"n":${i}}` });
      expect(res.status).toBe(202);
    }
    const open = await eventually(async () => {
      const b = await breakers();
      return b.sinks[0]?.state === "open" ? b : undefined;
    }, 3000);
    const [bad, good] = open.sinks;
    expect(bad.open_until).not.toBeNull();
    expect(Date.parse(bad.open_until) - Date.now()).toBeGreaterThan(30_000);
    expect(bad).toEqual({ sink: "bad", state: "open", open_until: bad.open_until, probe_until: null });
    expect(good).toEqual({ sink: "good", state: "closed", open_until: null, probe_until: null });
  });

  it("lists an endpoint whose shared breaker opened, not the healthy one", async () => {
    const create = async (url: string) =>
      (await admin(web, "POST", "/v1/endpoints", { body: { url, event_types: ["order.*"] } })).json.id;
    const sick = await create(`${failing.url}/ep`);
    await create(`${fine.url}/ep`);
    for (let i = 0; i < 2; i++) {
      const res = await admin(web, "POST", "/v1/events", {
        body: { id: `order-${i}`, type: "order.paid", payload: { i } },
      });
      expect(res.status).toBe(202);
    }
    const seen = await eventually(async () => {
      const b = await breakers();
      return b.endpoints.length > 0 ? b : undefined;
    });
    expect(seen.endpoints).toEqual([
      {
        endpoint: sick,
        tenant: null,
        url: `${failing.url}/ep`,
        state: "open",
        open_until: expect.any(String),
        probe_until: null,
      },
    ]);
    expect(seen.endpoints_checked).toBe(2);
    expect(seen.endpoints_truncated).toBe(false);
  });

  it("needs a token; a tenant-bound one sees no sinks and only its own endpoints", async () => {
    expect((await admin(web, "GET", "/v1/breakers", { token: null })).status).toBe(401);
    expect(await breakers(ACME_TOKEN)).toEqual({
      sinks: [],
      endpoints: [],
      endpoints_checked: 0,
      endpoints_truncated: false,
    });
  });

  it("shows a sink breaker as Redis holds it with no worker process running", async () => {
    await worker.gateway.stop();
    const after = await breakers();
    expect(after.sinks.map((s: { sink: string; state: string }) => [s.sink, s.state])).toEqual([
      ["bad", "open"],
      ["good", "closed"],
    ]);
  });
});

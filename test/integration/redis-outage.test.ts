// A Redis that goes away: ingest answers 503 with Retry-After (the provider retries, nothing is
// acknowledged that was not stored) and the same process recovers when Redis is back.
import { afterEach, expect, it } from "vitest";
import { type DevRedis, startPrivateRedis } from "../../src/runtime/dev-redis.ts";
import {
  ADMIN_TOKEN,
  type TestGateway,
  eventually,
  startTestGateway,
  testConfig,
} from "../support/test-gateway.ts";

let redis: DevRedis | undefined;
let gw: TestGateway | undefined;
afterEach(async () => {
  await gw?.gateway.stop();
  gw?.redis.disconnect();
  await redis?.stop();
});

it("answers 503 store_unavailable while Redis is down and recovers when it returns", async () => {
  redis = await startPrivateRedis();
  const port = Number(new URL(redis.url).port);
  const config = testConfig(
    {
      sinks: { a: { type: "http", url: "http://127.0.0.1:9/" } },
      sources: { open: { verify: { type: "none" }, sinks: ["a"] } },
    },
    redis.url,
  );
  gw = await startTestGateway(config, { roles: ["api"] });
  const post = (n: number) => fetch(`${gw!.url}/webhooks/open`, { method: "POST", body: `{"n":${n}}` });

  expect((await post(1)).status).toBe(202);

  await redis.stop();
  const down = await post(2);
  expect(down.status).toBe(503);
  expect(down.headers.get("retry-after")).toMatch(/^\d+$/);
  expect(((await down.json()) as { error: { code: string } }).error.code).toBe("store_unavailable");
  expect((await fetch(`${gw.url}/readyz`)).status).toBe(503);

  redis = await startPrivateRedis({ port });
  const back = await eventually(
    async () => {
      const res = await post(3);
      return res.status === 202 ? res : undefined;
    },
    10_000,
    "ingest to recover",
  );
  expect(back.status).toBe(202);
  expect((await fetch(`${gw.url}/readyz`)).status).toBe(200);
});

it("regression: admin routes answered a store outage with 500; every route answers it 503 store_unavailable", async () => {
  redis = await startPrivateRedis();
  const config = testConfig(
    {
      sinks: { a: { type: "http", url: "http://127.0.0.1:9/" } },
      sources: { open: { verify: { type: "none" }, sinks: ["a"] } },
    },
    redis.url,
  );
  gw = await startTestGateway(config, { roles: ["api"] });
  const accepted = (await (
    await fetch(`${gw.url}/webhooks/open`, { method: "POST", body: "{}" })
  ).json()) as {
    id: string;
  };
  await redis.stop();
  redis = undefined;
  const auth = { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" };
  const calls: [string, string, unknown?][] = [
    ["GET", `/v1/hooks/${accepted.id}`],
    ["GET", "/v1/dlq"],
    ["POST", "/v1/replays", { filter: {} }],
    ["GET", "/v1/endpoints"],
    ["POST", "/v1/events", { type: "order.paid", payload: {} }],
  ];
  for (const [method, path, body] of calls) {
    const res = await fetch(`${gw.url}${path}`, {
      method,
      headers: auth,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect([path, res.status]).toEqual([path, 503]);
    expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("store_unavailable");
  }
});

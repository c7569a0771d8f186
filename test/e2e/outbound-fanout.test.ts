// Outbound fanout end to end, through the HTTP API: one event to three endpoints that answer 200,
// 500-then-200 and 410 ends in three rows in the right state, the 410 endpoint disabled, the good one
// delivered exactly once, every request verified by the standardwebhooks and svix libraries (with two
// signatures during a rotation), and a re-publish of the same id delivering nothing again.
import { Queue } from "bullmq";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { Webhook as SvixWebhook } from "svix";
import { afterEach, expect, it } from "vitest";
import { OUTBOUND_QUEUE } from "../../src/queue/delivery-job.ts";
import { admin } from "../integration/admin-fixtures.ts";
import { type Receiver, type ReceivedRequest, startReceiver } from "../support/receiver.ts";
import { type TestGateway, eventually, startTestGateway, testConfig } from "../support/test-gateway.ts";

let gw: TestGateway | undefined;
const receivers: Receiver[] = [];
afterEach(async () => {
  await gw?.stop();
  gw = undefined;
  for (const r of receivers.splice(0)) await r.close();
});

const signatureHeaders = (r: ReceivedRequest): Record<string, string> => ({
  "webhook-id": String(r.headers["webhook-id"]),
  "webhook-timestamp": String(r.headers["webhook-timestamp"]),
  "webhook-signature": String(r.headers["webhook-signature"]),
});

/** Both reference verifiers accept `r` with `secret`. */
function verifies(r: ReceivedRequest, secret: string): boolean {
  const body = r.body.toString("utf8");
  const headers = signatureHeaders(r);
  new StandardWebhook(secret).verify(body, headers);
  new SvixWebhook(secret).verify(body, {
    "svix-id": headers["webhook-id"]!,
    "svix-timestamp": headers["webhook-timestamp"]!,
    "svix-signature": headers["webhook-signature"]!,
  });
  return true;
}

it("fans one event out to three endpoints, each to its own end, signed for both verifiers", async () => {
  const good = await startReceiver({ fallback: 200 });
  const flaky = await startReceiver({ script: [500], fallback: 200 });
  const gone = await startReceiver({ fallback: 410 });
  receivers.push(good, flaky, gone);
  gw = await startTestGateway(
    testConfig({
      outbound: { allow_private: true, timeout_ms: 2000 },
      sinks: { log: { type: "log" } },
      sources: { src: { verify: { type: "none" }, sinks: ["log"], allow_non_durable: true } },
    }),
  );
  const create = async (url: string) => {
    const res = await admin(gw!, "POST", "/v1/endpoints", { body: { url, event_types: ["order.*"] } });
    expect(res.status).toBe(201);
    return res.json as { id: string; secret: string };
  };
  const [a, b, c] = [
    await create(`${good.url}/hook`),
    await create(`${flaky.url}/hook`),
    await create(`${gone.url}/hook`),
  ];

  const published = await admin(gw, "POST", "/v1/events", {
    body: { id: "order-1-paid", type: "order.paid", payload: { order: 1, total: "12.50" } },
  });
  expect(published.status).toBe(202);
  expect(published.json.event_id).toBe("order-1-paid");
  const statuses = Object.fromEntries(
    (published.json.results as { endpoint_id: string; status: string }[]).map((r) => [
      r.endpoint_id,
      r.status,
    ]),
  );
  expect(statuses).toEqual({ [a.id]: "created", [b.id]: "created", [c.id]: "created" });

  const rows = async () =>
    Object.fromEntries(
      (
        (await admin(gw!, "GET", "/v1/events/order-1-paid/deliveries")).json.data as {
          endpoint_id: string;
          state: string;
          attempts: number;
          last_status_code?: number;
        }[]
      ).map((r) => [r.endpoint_id, r]),
    );
  await eventually(
    async () => {
      const r = await rows();
      return r[a.id]?.state === "delivered" && r[b.id]?.state === "delivered" && r[c.id]?.state === "dead";
    },
    15_000,
    "every row at its end",
  );
  const end = await rows();
  expect(end[a.id]).toMatchObject({ state: "delivered", attempts: 1 });
  expect(end[b.id]).toMatchObject({ state: "delivered", attempts: 2 });
  expect(end[c.id]).toMatchObject({ state: "dead", attempts: 1, last_status_code: 410 });
  // The 410 disabled its endpoint, and says why.
  const disabled = (await admin(gw, "GET", `/v1/endpoints/${c.id}`)).json;
  expect(disabled.disabled).toBe(true);
  expect(disabled.disabled_reason).toMatch(/410/);
  // The dead delivery is in the DLQ, filed under its endpoint.
  const dlq = (await admin(gw, "GET", `/v1/dlq?endpoint=${c.id}`)).json.data as {
    endpoint: string;
    event_id: string;
  }[];
  expect(dlq).toEqual([expect.objectContaining({ endpoint: c.id, event_id: "order-1-paid" })]);

  expect(good.requests).toHaveLength(1);
  expect(flaky.requests).toHaveLength(2);
  for (const [rx, secret] of [
    [good, a.secret],
    [flaky, b.secret],
  ] as const)
    for (const r of rx.requests) {
      expect(r.headers["webhook-id"]).toBe("order-1-paid"); // stable across retries
      expect(verifies(r, secret)).toBe(true);
      expect(JSON.parse(r.body.toString())).toEqual({
        type: "order.paid",
        timestamp: expect.any(String),
        data: { order: 1, total: "12.50" },
      });
    }

  // Re-publishing the same id: duplicates everywhere, nothing sent again.
  const again = await admin(gw, "POST", "/v1/events", {
    body: { id: "order-1-paid", type: "order.paid", payload: { order: 1, total: "12.50" } },
  });
  expect(again.status).toBe(202);
  const againStatuses = (again.json.results as { status: string }[]).map((r) => r.status);
  expect(againStatuses).toEqual(["duplicate", "duplicate"]); // the disabled endpoint no longer matches
  await new Promise((r) => setTimeout(r, 500));
  expect(good.requests).toHaveLength(1);

  // During a rotation both secrets sign: each verifier accepts with either one.
  const rotated = (await admin(gw, "POST", `/v1/endpoints/${a.id}/rotate-secret`)).json as { secret: string };
  expect(rotated.secret).not.toBe(a.secret);
  await admin(gw, "POST", "/v1/events", { body: { type: "order.shipped", payload: { order: 1 } } });
  const [, second] = await good.waitForRequests(2, 10_000);
  expect(String(second!.headers["webhook-signature"]).split(" ")).toHaveLength(2);
  expect(verifies(second!, rotated.secret)).toBe(true);
  expect(verifies(second!, a.secret)).toBe(true);

  // Let the outbound queue go quiet before the gateway stops (no job mid-flight at teardown).
  const queue = new Queue(OUTBOUND_QUEUE, {
    connection: gw.redis,
    prefix: gw.gateway.keys.queuePrefix(OUTBOUND_QUEUE),
  });
  await eventually(
    async () => (await queue.getJobCountByTypes("active", "waiting", "delayed")) === 0,
    10_000,
    "the outbound queue to drain",
  );
  await queue.close();
}, 60_000);

it("refuses an invalid event and a tenant the token may not use, writing nothing", async () => {
  gw = await startTestGateway(
    testConfig({
      admin: {
        tokens: ["test-admin-token-0123456789", { token: "acme-token-0123456789abc", tenant: "acme" }],
      },
      outbound: { allow_private: true },
      sinks: { log: { type: "log" } },
      sources: { src: { verify: { type: "none" }, sinks: ["log"], allow_non_durable: true } },
    }),
  );
  const bad = await admin(gw, "POST", "/v1/events", { body: { type: "no spaces allowed", payload: 1 } });
  expect(bad.status).toBe(400);
  expect(bad.json.error.code).toBe("invalid_request");
  const other = await admin(gw, "POST", "/v1/events", {
    body: { type: "order.paid", payload: 1, tenant: "globex", id: "x-1" },
    token: "acme-token-0123456789abc",
  });
  expect(other.status).toBe(404);
  expect((await admin(gw, "GET", "/v1/events/x-1")).status).toBe(404);
});

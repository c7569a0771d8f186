// 503 is the gateway's "not now" (Redis unavailable, shutting down): the client waits what Retry-After
// says (capped) and sends the same request again, body included, a bounded number of times.
import { expect, it } from "vitest";
import { SwitchyardApiError, createSwitchyardClient } from "../src/index.ts";
import { retryAfterSeconds } from "../src/errors.ts";

const unavailable = (retryAfter?: string): Response =>
  new Response(JSON.stringify({ error: { code: "store_unavailable", message: "redis is down" } }), {
    status: 503,
    headers: { "content-type": "application/json", ...(retryAfter ? { "retry-after": retryAfter } : {}) },
  });

function recorder(answers: Response[]) {
  const sent: { method: string; body: string; contentType: string | null; auth: string | null }[] = [];
  const waits: number[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    sent.push({
      method: request.method,
      body: await request.text(),
      contentType: request.headers.get("content-type"),
      auth: request.headers.get("authorization"),
    });
    return answers.shift() ?? new Response("{}", { status: 200 });
  };
  const sleep = async (ms: number): Promise<void> => void waits.push(ms);
  return { sent, waits, fetch, sleep };
}

it("retries a 503 after its Retry-After, sending the same body again", async () => {
  const r = recorder([]);
  const ok = new Response(
    JSON.stringify({ event_id: "e1", counts: {}, results: [], results_truncated: false }),
    {
      status: 202,
      headers: { "content-type": "application/json" },
    },
  );
  const answers = [unavailable("2"), unavailable("1"), ok];
  const fetch = async (request: Request): Promise<Response> => {
    await r.fetch(request);
    return answers.shift()!;
  };
  const retried = createSwitchyardClient({ baseUrl: "http://gw.test/", token: "tok", fetch, sleep: r.sleep });
  const result = await retried.events.publish({ id: "order-1", type: "order.paid", payload: { n: 1 } });
  expect(result.event_id).toBe("e1");
  expect(r.waits).toEqual([2000, 1000]);
  expect(r.sent.map((s) => s.body)).toEqual(
    Array(3).fill('{"id":"order-1","type":"order.paid","payload":{"n":1}}'),
  );
  expect(r.sent.every((s) => s.auth === "Bearer tok" && s.contentType === "application/json")).toBe(true);
});

it("gives up after its retries with the API's error, and caps the wait", async () => {
  const r = recorder([unavailable("3600"), unavailable(), unavailable("1")]);
  const client = createSwitchyardClient({
    baseUrl: "http://gw.test",
    fetch: r.fetch,
    sleep: r.sleep,
    retries: 2,
    maxDelayMs: 5000,
  });
  const err = await client.breakers.list().catch((e: unknown) => e);
  expect(err).toBeInstanceOf(SwitchyardApiError);
  expect(err).toMatchObject({
    status: 503,
    code: "store_unavailable",
    message: "redis is down",
    retryAfterS: 1,
  });
  // Capped at maxDelayMs; without Retry-After the backoff's second step, 1 s.
  expect(r.waits).toEqual([5000, 1000]);
  expect(r.sent).toHaveLength(3);
});

it("does not retry other refusals, and makes an idempotency id when none is given", async () => {
  const r = recorder([
    new Response(JSON.stringify({ error: { code: "conflict", message: "taken" } }), { status: 409 }),
  ]);
  const client = createSwitchyardClient({ baseUrl: "http://gw.test", fetch: r.fetch, sleep: r.sleep });
  await expect(client.events.publish({ type: "a.b", payload: null })).rejects.toMatchObject({
    code: "conflict",
  });
  expect(r.sent).toHaveLength(1);
  expect(JSON.parse(r.sent[0]!.body).id).toMatch(/^[0-9a-f-]{36}$/);
  // A body-less write still declares JSON (the API answers 415 otherwise).
  await client.dlq.purge("dl_1");
  expect(r.sent[1]).toMatchObject({ method: "DELETE", contentType: "application/json" });
});

it("reads Retry-After as seconds or as an HTTP date", () => {
  const now = Date.parse("2030-01-01T00:00:00Z");
  expect(retryAfterSeconds(new Headers({ "retry-after": "7" }), now)).toBe(7);
  expect(retryAfterSeconds(new Headers({ "retry-after": "Tue, 01 Jan 2030 00:00:30 GMT" }), now)).toBe(30);
  expect(retryAfterSeconds(new Headers({ "retry-after": "soon" }), now)).toBeUndefined();
  expect(retryAfterSeconds(new Headers(), now)).toBeUndefined();
});

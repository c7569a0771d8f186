// Regression (issue 33): any web page could drive the admin API through a browser that had logged into
// the dashboard. The browser keeps the dashboard's basic-auth credentials for the gateway's origin and
// sends them with a form (or a no-cors fetch) another site starts; the API took basic auth on /v1 and
// parsed a JSON body whatever its content type, so a `text/plain` POST from `https://evil.example`
// created an endpoint subscribed to every event. On a running gateway (a real port): such requests
// change nothing, bearer-token JSON calls still work, and Bull Board's own writes are refused from
// another site but work from the board's page (shown on the replays queue, which is on the board with
// either delivery engine: the guard is the board's, whatever the queue).
import { Queue } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSecret } from "../../src/domain/signing.ts";
import { REPLAY_QUEUE } from "../../src/queue/replay-queue.ts";
import { EndpointStore } from "../../src/store/endpoint-store.ts";
import { ADMIN_TOKEN, type TestGateway, startTestGateway, testConfig } from "../support/test-gateway.ts";

const EVIL = "https://evil.example";
const OPS = "https://ops.example.com";
const BASIC = `Basic ${Buffer.from(`ops:${ADMIN_TOKEN}`).toString("base64")}`;
const BEARER = `Bearer ${ADMIN_TOKEN}`;
/** What a hostile page can send without a CORS preflight: the three form encodings. */
const FORM_TYPES = ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"];

let gw: TestGateway;
let queue: Queue;

beforeAll(async () => {
  gw = await startTestGateway(
    testConfig({
      admin: { tokens: [ADMIN_TOKEN], allowed_origins: [OPS] },
      outbound: { allow_private: true },
      sinks: { s: { type: "http", url: "http://127.0.0.1:9/unused" } },
      sources: { src: { verify: { type: "none" }, sinks: ["s"] } },
    }),
    { roles: ["api"] },
  );
  queue = new Queue(REPLAY_QUEUE, {
    connection: gw.redis,
    prefix: gw.gateway.keys.queuePrefix(REPLAY_QUEUE),
  });
});

afterAll(async () => {
  await queue.close();
  await gw.stop();
});

interface Answer {
  readonly status: number;
  readonly json: any;
  readonly headers: Headers;
}

async function send(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  const res = await fetch(`${gw.url}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  return { status: res.status, json: text.length > 0 ? JSON.parse(text) : undefined, headers: res.headers };
}

/** A bearer-token call as the CLI makes it: every write declares JSON. */
const api = (method: string, path: string, body?: unknown): Promise<Answer> =>
  method === "GET"
    ? send(method, path, { authorization: BEARER })
    : send(
        method,
        path,
        { authorization: BEARER, "content-type": "application/json" },
        JSON.stringify(body ?? {}),
      );

async function createEndpoint(): Promise<{ id: string; secret: string }> {
  const created = await api("POST", "/v1/endpoints", { url: "http://127.0.0.1:9/hook", event_types: ["*"] });
  expect(created.status).toBe(201);
  return created.json as { id: string; secret: string };
}

/** Every cross-site attempt at `path`: each form encoding, with the browser's basic credentials. */
async function crossSiteForms(path: string, body: string): Promise<number[]> {
  const statuses: number[] = [];
  for (const type of FORM_TYPES) {
    const headers = {
      authorization: BASIC,
      "content-type": type,
      origin: EVIL,
      "sec-fetch-site": "cross-site",
    };
    statuses.push((await send("POST", path, headers, body)).status);
  }
  return statuses;
}

describe("cross-site form posts with the dashboard's basic credentials change nothing", () => {
  it("POST /v1/endpoints creates no endpoint", async () => {
    const body = JSON.stringify({ url: "http://127.0.0.1:9/attacker", event_types: ["*"] });
    const statuses = await crossSiteForms("/v1/endpoints", body);
    expect(statuses).toEqual(statuses.map(() => 401));
    const listed = await api("GET", "/v1/endpoints");
    expect(listed.json.data.map((e: { url: string }) => e.url)).not.toContain("http://127.0.0.1:9/attacker");
  });

  it("POST /v1/events publishes no event", async () => {
    const endpoint = await createEndpoint();
    const event = { type: "order.paid", payload: { n: 1 }, id: `evt-cross-site-${Date.now()}` };
    const statuses = await crossSiteForms("/v1/events", JSON.stringify(event));
    expect(statuses).toEqual(statuses.map(() => 401));
    // Had any of them been published, this would be a duplicate of it.
    const published = await api("POST", "/v1/events", event);
    expect(published.status).toBe(202);
    expect(published.json.results).toContainEqual({ endpoint_id: endpoint.id, status: "created" });
  });

  it("POST /v1/replays starts no replay", async () => {
    const statuses = await crossSiteForms("/v1/replays", JSON.stringify({ filter: {}, rate_per_s: 10 }));
    expect(statuses).toEqual(statuses.map(() => 401));
    expect((await api("GET", "/v1/replays")).json.data).toEqual([]);
  });

  it("POST /v1/endpoints/:id/rotate-secret leaves the secret as it was", async () => {
    const { id, secret } = await createEndpoint();
    // Body-less, like a form with no fields, and with a chosen secret.
    const statuses = [
      ...(await crossSiteForms(`/v1/endpoints/${id}/rotate-secret`, "")),
      ...(await crossSiteForms(
        `/v1/endpoints/${id}/rotate-secret`,
        JSON.stringify({ secret: generateSecret(32) }),
      )),
    ];
    expect(statuses).toEqual(statuses.map(() => 401));
    const stored = await new EndpointStore(gw.redis, gw.gateway.keys).get(id);
    expect(stored?.secret).toBe(secret);
    expect(stored?.previous_secrets ?? []).toEqual([]);
  });
});

describe("the JSON admin API", () => {
  it("takes a bearer token with a JSON body", async () => {
    const { id, secret } = await createEndpoint();
    const rotated = await send("POST", `/v1/endpoints/${id}/rotate-secret`, {
      authorization: BEARER,
      "content-type": "application/json",
    });
    expect(rotated.status).toBe(200);
    expect(rotated.json.secret).not.toBe(secret);
  });

  it("answers basic auth with 401, even for a same-origin JSON request", async () => {
    const headers = { authorization: BASIC, "content-type": "application/json" };
    const answer = await send("POST", "/v1/replays", headers, JSON.stringify({ filter: {}, rate_per_s: 10 }));
    expect(answer.status).toBe(401);
    expect(answer.json.error.code).toBe("unauthorized");
    expect(answer.headers.get("www-authenticate")).toBe('Bearer realm="switchyard"');
    expect((await send("GET", "/v1/endpoints", { authorization: BASIC })).status).toBe(401);
    expect((await api("GET", "/v1/replays")).json.data).toEqual([]);
  });

  it("answers a state-changing request that is not JSON with 415, bearer token or not", async () => {
    const body = JSON.stringify({ url: "http://127.0.0.1:9/plain", event_types: ["*"] });
    const plain = await send(
      "POST",
      "/v1/endpoints",
      { authorization: BEARER, "content-type": "text/plain" },
      body,
    );
    expect(plain.status).toBe(415);
    expect(plain.json.error.code).toBe("unsupported_media_type");
    const { id, secret } = await createEndpoint();
    // Body-less requests too: a form can send a body-less POST, and one rule is easier to trust.
    expect((await send("POST", `/v1/endpoints/${id}/rotate-secret`, { authorization: BEARER })).status).toBe(
      415,
    );
    expect((await send("DELETE", `/v1/endpoints/${id}`, { authorization: BEARER })).status).toBe(415);
    expect((await new EndpointStore(gw.redis, gw.gateway.keys).get(id))?.secret).toBe(secret);
    expect(
      (
        await send("DELETE", `/v1/endpoints/${id}`, {
          authorization: BEARER,
          "content-type": "application/json",
        })
      ).status,
    ).toBe(204);
  });

  it("refuses a bearer-token JSON request from a foreign origin with 403, and takes it from a configured one", async () => {
    const body = JSON.stringify({ url: "http://127.0.0.1:9/origin", event_types: ["*"] });
    const json = { authorization: BEARER, "content-type": "application/json" };
    const foreign = await send("POST", "/v1/endpoints", { ...json, origin: EVIL }, body);
    expect(foreign.status).toBe(403);
    expect(foreign.json.error.code).toBe("forbidden");
    const sameSite = await send("POST", "/v1/endpoints", { ...json, "sec-fetch-site": "same-site" }, body);
    expect(sameSite.status).toBe(403);
    const listed = await api("GET", "/v1/endpoints");
    expect(listed.json.data.map((e: { url: string }) => e.url)).not.toContain("http://127.0.0.1:9/origin");

    const configured = await send(
      "POST",
      "/v1/endpoints",
      { ...json, origin: OPS, "sec-fetch-site": "cross-site" },
      body,
    );
    expect(configured.status).toBe(201);
    expect(configured.headers.get("access-control-allow-origin")).toBe(OPS);
    const own = await send(
      "POST",
      "/v1/endpoints",
      { ...json, origin: gw.url, "sec-fetch-site": "same-origin" },
      body,
    );
    expect(own.status).toBe(201);
  });

  it("grants CORS only to configured origins", async () => {
    const preflight = (origin: string) =>
      send("OPTIONS", "/v1/endpoints", {
        origin,
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, content-type",
      });
    const ops = await preflight(OPS);
    expect(ops.status).toBe(204);
    expect(ops.headers.get("access-control-allow-origin")).toBe(OPS);
    expect(ops.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("authorization");
    const evil = await preflight(EVIL);
    expect(evil.headers.get("access-control-allow-origin")).toBeNull();
    const read = await send("GET", "/v1/endpoints", { authorization: BEARER, origin: EVIL });
    expect(read.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("Bull Board's state-changing calls", () => {
  const pause = `/admin/queues/api/queues/${REPLAY_QUEUE}/pause`;
  const resume = `/admin/queues/api/queues/${REPLAY_QUEUE}/resume`;

  it("are refused from a foreign origin (403) and work from the board's own page", async () => {
    expect(await queue.isPaused()).toBe(false);
    const foreign = await send("PUT", pause, { authorization: BASIC, origin: EVIL });
    expect(foreign.status).toBe(403);
    const noOrigin = await send("PUT", pause, { authorization: BASIC, "sec-fetch-site": "cross-site" });
    expect(noOrigin.status).toBe(403);
    expect(await queue.isPaused()).toBe(false);

    // The board sends its body-less actions without a content type.
    const own = await send("PUT", pause, {
      authorization: BASIC,
      origin: gw.url,
      "sec-fetch-site": "same-origin",
    });
    expect(own.status).toBe(200);
    expect(await queue.isPaused()).toBe(true);
    expect((await send("PUT", resume, { authorization: BASIC, origin: gw.url })).status).toBe(200);
    expect(await queue.isPaused()).toBe(false);
  });

  it("refuse a form post to the board, from its own page too", async () => {
    const add = `/admin/queues/api/queues/${REPLAY_QUEUE}/add`;
    const body = JSON.stringify({ name: "x", data: {}, options: {} });
    const form = await send(
      "POST",
      add,
      { authorization: BASIC, origin: gw.url, "content-type": "text/plain" },
      body,
    );
    expect(form.status).toBe(415);
    expect(await queue.count()).toBe(0);
  });
});

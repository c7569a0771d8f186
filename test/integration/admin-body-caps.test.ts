// Admin bodies are capped while they are read: a body without Content-Length (chunked) that passes its
// route's cap is answered 413 as soon as it does, not after the client has sent (and the gateway held)
// all of it; and a tenant may have only so many endpoints, so one publish is a bounded fanout.
import { expect, it } from "vitest";
import {
  ENDPOINT_BODY_MAX_BYTES,
  EVENT_ENVELOPE_BYTES,
  REPLAY_BODY_MAX_BYTES,
} from "../../src/api/read-body.ts";
import { admin } from "./admin-fixtures.ts";
import { createEndpoint, gateway, outboundConfig, useOutboundTeardown } from "../support/outbound.ts";
import { ADMIN_TOKEN, type TestGateway } from "../support/test-gateway.ts";

useOutboundTeardown();

/**
 * POST a JSON body streamed without Content-Length: `bytes` of it, then the stream stays open (a
 * client still sending). The answer, or undefined if none came within `withinMs`.
 */
async function postEndless(
  gw: TestGateway,
  path: string,
  bytes: number,
  withinMs: number,
): Promise<{ status: number; json: any } | undefined> {
  const app = gw.gateway.app;
  if (!app) throw new Error("no API role");
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"x":"'));
      for (let sent = 0; sent < bytes; sent += 64 * 1024)
        controller.enqueue(new Uint8Array(64 * 1024).fill(97));
    },
  });
  const answer = Promise.resolve(
    app.request(path, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body,
      duplex: "half",
    } as RequestInit),
  ).then(async (res) => ({ status: res.status, json: JSON.parse(await res.text()) as unknown }));
  const timeout = new Promise<undefined>((r) => setTimeout(() => r(undefined), withinMs));
  return Promise.race([answer, timeout]);
}

it("admin bodies over their cap are refused 413 while being read, chunked bodies without Content-Length included", async () => {
  const gw = await gateway(outboundConfig({}, { http: { max_body_bytes: 256 * 1024 } }));
  const cases: [string, number][] = [
    ["/v1/endpoints", ENDPOINT_BODY_MAX_BYTES],
    ["/v1/events", 256 * 1024 + EVENT_ENVELOPE_BYTES],
    ["/v1/replays", REPLAY_BODY_MAX_BYTES],
  ];
  for (const [path, cap] of cases) {
    const res = await postEndless(gw, path, cap + 128 * 1024, 5000);
    expect(res, `${path}: an answer before the body ends`).toBeDefined();
    expect(res?.status, path).toBe(413);
    expect(res?.json).toMatchObject({ error: { code: "payload_too_large" } });
  }
});

it("refuses an endpoint past outbound.max_endpoints_per_tenant (409 too_many_endpoints), per tenant", async () => {
  const gw = await gateway(outboundConfig({ max_endpoints_per_tenant: 3 }));
  const url = "http://127.0.0.1:9/hook";
  const made = [];
  for (let i = 0; i < 3; i++)
    made.push(await createEndpoint(gw, { url, event_types: ["*"], tenant: "acme" }));
  const refused = await admin(gw, "POST", "/v1/endpoints", {
    body: { url, event_types: ["*"], tenant: "acme" },
  });
  expect(refused.status).toBe(409);
  expect(refused.json.error.code).toBe("too_many_endpoints");
  // Another tenant, and the tenantless scope, have their own counts.
  await createEndpoint(gw, { url, event_types: ["*"], tenant: "globex" });
  for (let i = 0; i < 3; i++) await createEndpoint(gw, { url, event_types: ["*"] });
  expect((await admin(gw, "POST", "/v1/endpoints", { body: { url, event_types: ["*"] } })).status).toBe(409);
  // Deleting one makes room again.
  expect((await admin(gw, "DELETE", `/v1/endpoints/${made[0]?.id}`)).status).toBe(204);
  await createEndpoint(gw, { url, event_types: ["*"], tenant: "acme" });
});

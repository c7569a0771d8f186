// Random admin payloads against the outbound API (endpoints and events) on real Redis: whatever the
// body, the server answers without a 5xx while Redis is up, every error is {"error":{"code"}}, and a
// refused request writes nothing.
import fc from "fast-check";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type PropertyGateway, expectWellFormed, startPropertyGateway } from "../support/http-arbitraries.ts";
import { runs } from "../support/property.ts";
import { ADMIN_TOKEN } from "../support/test-gateway.ts";

let env: PropertyGateway;
beforeAll(async () => {
  env = await startPropertyGateway();
});
afterAll(async () => {
  await env?.stop();
});

const auth = { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" };
const anyJson = fc.jsonValue({ maxDepth: 3 });
const url = fc.oneof(
  fc.constantFrom(
    "http://127.0.0.1:9/x",
    "https://example.invalid/h",
    "ftp://x/",
    "http://[::1]/",
    "javascript:1",
  ),
  fc.webUrl(),
  fc.string(),
);
const eventType = fc.oneof(fc.constantFrom("order.paid", "order.*", "*", "a..b", ".x", "ünï"), fc.string());

describe("outbound API under random payloads", () => {
  it("answers endpoint and event requests without a 5xx, with error.code on every error", async () => {
    const app = env.gw.gateway.app!;
    const endpointBody = fc.oneof(
      anyJson,
      fc.record(
        {
          url,
          event_types: fc.oneof(fc.array(eventType, { maxLength: 4 }), anyJson),
          secret: fc.oneof(fc.constant("whsec_" + Buffer.alloc(32, 7).toString("base64")), fc.string()),
          tenant: fc.oneof(fc.constantFrom("acme", "a:b"), fc.string()),
          headers: fc.oneof(fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 }), anyJson),
          rate_limit_per_s: fc.oneof(fc.integer(), fc.double(), fc.string()),
          disabled: fc.oneof(fc.boolean(), fc.string()),
          description: fc.string({ maxLength: 40 }),
        },
        { requiredKeys: [] },
      ),
    );
    const eventBody = fc.oneof(
      anyJson,
      fc.record(
        {
          type: eventType,
          payload: anyJson,
          id: fc.oneof(fc.constantFrom("order-1", "a b", "x".repeat(200)), fc.string()),
          tenant: fc.oneof(fc.constantFrom("acme", "-", "a:b"), fc.string()),
        },
        { requiredKeys: [] },
      ),
    );
    await fc.assert(
      fc.asyncProperty(endpointBody, eventBody, async (ep, ev) => {
        const epJson = JSON.stringify(ep);
        const created = await app.request("/v1/endpoints", { method: "POST", headers: auth, body: epJson });
        await expectWellFormed(created.clone(), `POST /v1/endpoints ${epJson}`);
        const id = created.status === 201 ? ((await created.json()) as { id: string }).id : "ep_nope";
        await expectWellFormed(
          await app.request(`/v1/endpoints/${id}`, { method: "PATCH", headers: auth, body: epJson }),
          `PATCH /v1/endpoints/${id} ${epJson}`,
        );
        const evJson = JSON.stringify(ev);
        const published = await app.request("/v1/events", { method: "POST", headers: auth, body: evJson });
        await expectWellFormed(published.clone(), `POST /v1/events ${evJson}`);
        const eventId = encodeURIComponent(
          typeof ev === "object" && ev && "id" in ev ? String(ev.id) : "none",
        );
        await expectWellFormed(
          await app.request(`/v1/events/${eventId}/deliveries`, { headers: auth }),
          `GET deliveries ${eventId}`,
        );
        if (created.status === 201)
          await expectWellFormed(
            await app.request(`/v1/endpoints/${id}`, { method: "DELETE", headers: auth }),
            "DELETE",
          );
      }),
      runs(150),
    );
  });
});

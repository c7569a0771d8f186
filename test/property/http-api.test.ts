// Random requests against the whole HTTP API on real Redis: paths, methods, header sets (huge,
// repeated, latin-1, missing), bodies, and admin payloads. Whatever arrives, the server answers without
// a 5xx while Redis is up, and every error is {"error":{"code"}}.
import fc from "fast-check";
import { afterAll, beforeAll, describe, it } from "vitest";
import {
  type PropertyGateway,
  body,
  expectWellFormed,
  headers,
  method,
  path,
  startPropertyGateway,
} from "../support/http-arbitraries.ts";
import { runs } from "../support/property.ts";
import { ADMIN_TOKEN } from "../support/test-gateway.ts";

let env: PropertyGateway;
beforeAll(async () => {
  env = await startPropertyGateway();
});
afterAll(async () => {
  await env?.stop();
});

describe("HTTP API under random input", () => {
  it("answers every request without a 5xx, with error.code on every error", async () => {
    const app = env.gw.gateway.app!;
    await fc.assert(
      fc.asyncProperty(method, path, headers, body, async (m, p, h, b) => {
        const what = `${m} ${p}`;
        const res = await app.request(p, {
          method: m,
          headers: h,
          body: m === "GET" ? undefined : b,
        });
        await expectWellFormed(res, what);
      }),
      runs(300),
    );
  });

  it("admin payloads: replay bodies, replay patches and DLQ filters", async () => {
    const app = env.gw.gateway.app!;
    const auth = { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" };
    const filterValue = fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.integer(),
      fc.constantFrom("2h", "-1", "1e30", "2026-12-01T00:00:00Z", "", "NaN", "9".repeat(40)),
    );
    const filterKey = fc.constantFrom(
      "source",
      "sink",
      "error_class",
      "since",
      "until",
      "ids",
      "limit",
      "cursor",
      "x",
    );
    const payload = fc.oneof(
      fc.json({ maxDepth: 4 }),
      fc
        .record(
          {
            filter: fc.dictionary(
              filterKey,
              fc.oneof(filterValue, fc.array(fc.string({ maxLength: 30 }), { maxLength: 3 })),
            ),
            rate_per_s: fc.oneof(
              fc.integer({ min: -5, max: 2_000_000 }),
              fc.double(),
              fc.string({ maxLength: 5 }),
            ),
            state: fc.constantFrom("running", "paused", "cancelled", "done", ""),
          },
          { requiredKeys: [] },
        )
        .map((o) => JSON.stringify(o)),
    );
    const query = fc
      .dictionary(filterKey, filterValue.map(String), { maxKeys: 6 })
      .map((q) => new URLSearchParams(q).toString());

    await fc.assert(
      fc.asyncProperty(
        payload,
        query,
        fc.constantFrom("rp_00000000000000000000000000", "nope"),
        async (json, q, rid) => {
          const created = await app.request("/v1/replays", { method: "POST", headers: auth, body: json });
          await expectWellFormed(created.clone(), `POST /v1/replays ${json}`);
          const id = created.status === 202 ? ((await created.json()) as { id: string }).id : rid;
          await expectWellFormed(
            await app.request(`/v1/replays/${id}`, { method: "PATCH", headers: auth, body: json }),
            `PATCH /v1/replays/${id} ${json}`,
          );
          await expectWellFormed(
            await app.request(`/v1/replays/${id}`, { headers: auth }),
            `GET replay ${id}`,
          );
          await expectWellFormed(await app.request(`/v1/dlq?${q}`, { headers: auth }), `GET /v1/dlq?${q}`);
        },
      ),
      runs(200),
    );
  });
});

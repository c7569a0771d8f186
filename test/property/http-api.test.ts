// Random requests against the whole HTTP API on real Redis: paths, methods, header sets, bodies,
// signatures and admin payloads. Whatever arrives, the server answers (never 5xx while Redis is up),
// every error is {"error":{"code"}}, and no hook that failed verification is stored or delivered.
import { createHmac } from "node:crypto";
import { connect } from "node:net";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runs } from "../support/property.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";
import { ADMIN_TOKEN, type TestGateway, startTestGateway, testConfig } from "../support/test-gateway.ts";

const GITHUB_SECRET = "property-github-secret";
let gw: TestGateway;
let rx: Receiver;

beforeAll(async () => {
  rx = await startReceiver({ script: [], fallback: 200 });
  gw = await startTestGateway(
    testConfig({
      http: { max_body_bytes: 64 * 1024, request_timeout_ms: 2000, headers_timeout_ms: 1000 },
      sinks: { out: { type: "http", url: `${rx.url}/in` }, audit: { type: "log" } },
      sources: {
        open: { verify: { type: "none" }, sinks: ["audit"], allow_non_durable: true, tenants: ["acme"] },
        gh: { verify: { type: "github", secrets: [GITHUB_SECRET] }, dedup: { json: "id" }, sinks: ["out"] },
        sw: {
          verify: { type: "standard_webhooks", secrets: ["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"] },
          sinks: ["out"],
        },
      },
    }),
    { roles: ["api", "dispatch"] },
  );
});

afterAll(async () => {
  await gw?.stop();
  await rx?.close();
});

/** A byte string (what a header value may hold), biased towards the odd: empty, latin-1, huge. */
const headerValue = fc.oneof(
  fc.string({ maxLength: 40 }).map((s) => s.replace(/[^\x20-\x7e]/g, "")),
  fc.stringMatching(/^[\x20-\x7e\x80-\xff]{0,60}$/),
  fc.constantFrom("", " ", "\t", "sha256=", "Bearer ", `Bearer ${ADMIN_TOKEN}`, "v1,AAAA"),
  fc.integer({ min: 1, max: 20_000 }).map((n) => "x".repeat(n)),
);
const headerName = fc.oneof(
  fc.constantFrom(
    "content-type",
    "authorization",
    "x-hub-signature-256",
    "webhook-id",
    "webhook-timestamp",
    "webhook-signature",
    "x-github-delivery",
    "accept",
    "cookie",
  ),
  fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/),
);
// Pairs, not a map: the same name may come several times.
const headers = fc
  .tuple(
    fc.option(fc.constant<[string, string]>(["authorization", `Bearer ${ADMIN_TOKEN}`]), { freq: 2 }),
    fc.array(fc.tuple(headerName, headerValue), { maxLength: 10 }),
  )
  .map(([auth, rest]) => (auth ? [auth, ...rest] : rest));

const segment = fc.oneof(
  fc.constantFrom(
    "open",
    "gh",
    "sw",
    "acme",
    "..",
    ".",
    "%2F",
    "%00",
    "hk_00000000000000000000000000",
    "rp_x",
  ),
  fc.stringMatching(/^[A-Za-z0-9_-]{1,70}$/),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
);
const query = fc.option(
  fc.string({ maxLength: 30 }).map((q) => `?${encodeURI(q).replace(/#/g, "%23")}`),
  { nil: "" },
);
const path = fc.oneof(
  // The routes that exist, so most requests get past routing.
  fc
    .tuple(
      fc.constantFrom(
        "/healthz",
        "/readyz",
        "/metrics",
        "/openapi.json",
        "/asyncapi.json",
        "/webhooks/open",
        "/webhooks/acme/open",
        "/webhooks/gh",
        "/webhooks/sw",
        "/v1/dlq",
        "/v1/replays",
        "/v1/replays/rp_00000000000000000000000000",
        "/v1/hooks/hk_00000000000000000000000000",
        "/v1/claims/hk_00000000000000000000000000",
        "/v1/dlq/hk_00000000000000000000000000-out",
      ),
      query,
    )
    .map(([p, q]) => `${p}${q}`),
  // Anything under them.
  fc
    .tuple(
      fc.constantFrom("/webhooks", "/v1/hooks", "/v1/dlq", "/v1/replays", "/v1/claims", "/admin/queues", ""),
      fc.array(segment, { maxLength: 3 }),
      query,
    )
    .map(([base, segs, q]) => `${base}/${segs.join("/")}${q}`),
);
const method = fc.oneof(
  { weight: 4, arbitrary: fc.constant("GET") },
  { weight: 3, arbitrary: fc.constant("POST") },
  { weight: 2, arbitrary: fc.constantFrom("PATCH", "DELETE", "PUT", "OPTIONS") },
);
const body = fc.oneof(
  fc.constant(undefined),
  fc.uint8Array({ maxLength: 2048 }).map((b) => Buffer.from(b)),
  fc.json({ maxDepth: 6 }).map((j) => Buffer.from(j)),
  fc.constantFrom("[".repeat(5000), "{", '{"id":', "\u0000", "null").map((s) => Buffer.from(s)),
);

/** The answer must not be a 5xx, and an error must carry error.code. */
async function expectWellFormed(res: Response, what: string): Promise<void> {
  expect(res.status, what).toBeLessThan(500);
  if (res.status >= 400) {
    const json = (await res.json().catch(() => undefined)) as { error?: { code?: unknown } } | undefined;
    expect(typeof json?.error?.code, `${what}: ${res.status} without error.code`).toBe("string");
  } else {
    await res.arrayBuffer();
  }
}

async function countKeys(pattern: string): Promise<number> {
  let n = 0;
  let cursor = "0";
  do {
    const [next, keys] = await gw.redis.scan(cursor, "MATCH", pattern, "COUNT", 1000);
    cursor = next;
    n += keys.length;
  } while (cursor !== "0");
  return n;
}

describe("HTTP API under random input", () => {
  it("answers every request without a 5xx, with error.code on every error", async () => {
    const app = gw.gateway.app!;
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
    const app = gw.gateway.app!;
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

  it("stores and delivers no hook whose signature does not verify", async () => {
    const app = gw.gateway.app!;
    const base = gw.gateway.keys.base;
    const before = await countKeys(`${base}:hook:*`);
    const delivered = rx.requests.length;
    const hex64 = fc.stringMatching(/^[0-9a-f]{64}$/);
    const githubSig = fc.oneof(
      hex64.map((h) => `sha256=${h}`),
      headerValue,
      fc.constant(undefined),
      // A real signature, of different bytes than are sent.
      fc
        .uint8Array({ maxLength: 64 })
        .map(
          (other) => `sha256=${createHmac("sha256", GITHUB_SECRET).update(Buffer.from(other)).digest("hex")}`,
        ),
    );
    const swHeaders = fc.record(
      {
        "webhook-id": headerValue,
        "webhook-timestamp": fc.oneof(
          fc.integer().map(String),
          fc.constant(String(Math.floor(Date.now() / 1000))),
        ),
        "webhook-signature": fc.oneof(
          headerValue,
          fc.base64String({ maxLength: 60 }).map((s) => `v1,${s}`),
        ),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 1, maxLength: 512 }),
        githubSig,
        swHeaders,
        async (bytes, sig, sw) => {
          const payload = Buffer.concat([Buffer.from('{"id":"'), Buffer.from(bytes), Buffer.from('"}')]);
          const gh = await app.request("/webhooks/gh", {
            method: "POST",
            body: payload,
            headers: sig === undefined ? {} : { "x-hub-signature-256": sig },
          });
          expect(gh.status).toBe(401);
          expect(((await gh.json()) as { error: { code: string } }).error.code).toBe("verification_failed");
          const res = await app.request("/webhooks/sw", { method: "POST", body: payload, headers: sw });
          expect(res.status).toBe(401);
          await res.arrayBuffer();
        },
      ),
      runs(300),
    );
    expect(await countKeys(`${base}:hook:*`)).toBe(before);
    expect(await countKeys(`${base}:dedup:*:gh:*`)).toBe(0);
    expect(await countKeys(`${base}:dedup:*:sw:*`)).toBe(0);
    // Give a wrongly accepted hook time to be delivered before saying none was.
    await new Promise((r) => setTimeout(r, 300));
    expect(rx.requests.length).toBe(delivered);
  });

  it("survives lying Content-Length and truncated bodies on real sockets", async () => {
    const port = gw.gateway.port!;
    const exchange = (head: string, sent: Buffer, end: "half-close" | "destroy" | "wait"): Promise<string> =>
      new Promise((resolve) => {
        let data = "";
        const socket = connect(port, "127.0.0.1", () => {
          socket.write(head);
          socket.write(sent);
          if (end === "half-close") socket.end();
          if (end === "destroy") setTimeout(() => socket.destroy(), 5);
        });
        socket.on("data", (d) => (data += d.toString("latin1")));
        socket.on("error", () => undefined);
        socket.on("close", () => resolve(data));
        // `wait`: the request timeout (2 s) would end it; do not wait that long per run.
        setTimeout(() => socket.destroy(), end === "wait" ? 150 : 1000);
      });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("/webhooks/open", "/webhooks/gh", "/webhooks/acme/open", "/v1/replays", "/nope"),
        fc.uint8Array({ maxLength: 300 }),
        fc.integer({ min: -50, max: 10_000_000 }),
        fc.constantFrom("half-close", "destroy", "wait") as fc.Arbitrary<"half-close" | "destroy" | "wait">,
        async (p, bytes, lie, end) => {
          const sent = Buffer.from(bytes);
          const declared = Math.max(0, sent.length + lie);
          const head = `POST ${p} HTTP/1.1\r\nHost: x\r\nContent-Length: ${declared}\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\n\r\n`;
          const answer = await exchange(head, sent, end);
          for (const m of answer.matchAll(/HTTP\/1\.1 (\d{3})/g))
            expect(Number(m[1]), `${p} ${declared}/${sent.length}`).toBeLessThan(500);
        },
      ),
      runs(100),
    );
    const health = await fetch(`${gw.url}/healthz`);
    expect(health.status).toBe(200);
  });
});

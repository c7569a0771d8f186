// What the HTTP property tests share: one gateway on real Redis with an open source and two signed
// ones (delivering to a receiver that counts what arrives), the arbitraries of odd HTTP input, and the
// check every answer must pass.
import fc from "fast-check";
import { expect } from "vitest";
import { type Receiver, startReceiver } from "./receiver.ts";
import { ADMIN_TOKEN, type TestGateway, startTestGateway, testConfig } from "./test-gateway.ts";

export const GITHUB_SECRET = "property-github-secret";

export interface PropertyGateway {
  readonly gw: TestGateway;
  readonly rx: Receiver;
  stop(): Promise<void>;
}

export async function startPropertyGateway(): Promise<PropertyGateway> {
  const rx = await startReceiver({ script: [], fallback: 200 });
  const gw = await startTestGateway(
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
  return {
    gw,
    rx,
    stop: async () => {
      await gw.stop();
      await rx.close();
    },
  };
}

/** A byte string (what a header value may hold), biased towards the odd: empty, latin-1, huge. */
export const headerValue = fc.oneof(
  fc.string({ maxLength: 40 }).map((s) => s.replace(/[^\x20-\x7e]/g, "")),
  fc.stringMatching(/^[\x20-\x7e\x80-\xff]{0,60}$/),
  fc.constantFrom("", " ", "\t", "sha256=", "Bearer ", `Bearer ${ADMIN_TOKEN}`, "v1,AAAA"),
  fc.integer({ min: 1, max: 20_000 }).map((n) => "x".repeat(n)),
);
export const headerName = fc.oneof(
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
export const headers = fc
  .tuple(
    fc.option(fc.constant<[string, string]>(["authorization", `Bearer ${ADMIN_TOKEN}`]), { freq: 2 }),
    fc.array(fc.tuple(headerName, headerValue), { maxLength: 10 }),
  )
  .map(([auth, rest]) => (auth ? [auth, ...rest] : rest));

export const segment = fc.oneof(
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
export const query = fc.option(
  fc.string({ maxLength: 30 }).map((q) => `?${encodeURI(q).replace(/#/g, "%23")}`),
  { nil: "" },
);
export const path = fc.oneof(
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
export const method = fc.oneof(
  { weight: 4, arbitrary: fc.constant("GET") },
  { weight: 3, arbitrary: fc.constant("POST") },
  { weight: 2, arbitrary: fc.constantFrom("PATCH", "DELETE", "PUT", "OPTIONS") },
);
export const body = fc.oneof(
  fc.constant(undefined),
  fc.uint8Array({ maxLength: 2048 }).map((b) => Buffer.from(b)),
  fc.json({ maxDepth: 6 }).map((j) => Buffer.from(j)),
  fc.constantFrom("[".repeat(5000), "{", '{"id":', "\u0000", "null").map((s) => Buffer.from(s)),
);

/** The answer must not be a 5xx, and an error must carry error.code. */
export async function expectWellFormed(res: Response, what: string): Promise<void> {
  expect(res.status, what).toBeLessThan(500);
  if (res.status >= 400) {
    const json = (await res.json().catch(() => undefined)) as { error?: { code?: unknown } } | undefined;
    expect(typeof json?.error?.code, `${what}: ${res.status} without error.code`).toBe("string");
  } else {
    await res.arrayBuffer();
  }
}

// The headers a hook keeps are read from Node's raw header list on the hot path and from a fetch Headers
// object elsewhere: both must give the same record, byte for byte (key order included).
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { afterEach, describe, expect, it, vi } from "vitest";
import { webhookRoutes } from "../../src/api/routes/webhooks.ts";
import type { SourceConfig } from "../../src/config/schema.ts";
import { keptHeaders, keptRawHeaders } from "../../src/ingest/headers.ts";
import type { IngestRequest, IngestService } from "../../src/ingest/ingest-service.ts";
import { Metrics } from "../../src/observability/metrics.ts";
import { TRACING_OFF } from "../../src/observability/tracing.ts";

/** The hop-by-hop headers, written out here again so the expectation does not lean on the code. */
const HOP_BY_HOP = ["connection", "keep-alive", "proxy-authenticate", "proxy-authorization"];
const HOP_BY_HOP_TOO = [
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "content-length",
];

/** What a fetch Headers object built from the same raw list holds, in its order, less hop-by-hop ones. */
function viaHeaders(raw: readonly string[]): Record<string, string> {
  const headers = new Headers();
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string);
  const named = (headers.get("connection") ?? "").split(",").map((h) => h.trim().toLowerCase());
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (![...HOP_BY_HOP, ...HOP_BY_HOP_TOO, ...named].includes(name)) out[name] = value;
  });
  return out;
}

const CASES: readonly (readonly string[])[] = [
  [],
  ["Host", "example.test", "Content-Type", "application/json", "Content-Length", "12"],
  ["X-Dup", "one", "x-dup", "two", "X-DUP", "three"],
  ["Cookie", "a=1", "cookie", "b=2"],
  ["Set-Cookie", "s=1", "Set-Cookie", "s=2"],
  ["X-Pad", "  spaced\t", "X-Empty", ""],
  ["Connection", "keep-alive, X-Hop", "X-Hop", "gone", "X-Stay", "kept", "Keep-Alive", "timeout=5"],
  ["connection", "x-a", "Connection", "X-B", "x-a", "1", "x-b", "2", "x-c", "3"],
  ["Transfer-Encoding", "chunked", "TE", "trailers", "Upgrade", "h2c", "Webhook-Id", "msg_1"],
  ["z-last", "1", "A-first", "2", "m-middle", "3"],
];

describe("keptRawHeaders", () => {
  it.each(CASES.map((raw) => [raw.join("|"), raw] as const))("keeps what Headers keeps: %s", (_, raw) => {
    expect(JSON.stringify(keptRawHeaders(raw))).toBe(JSON.stringify(viaHeaders(raw)));
  });

  it.each(CASES.map((raw) => [raw.join("|"), raw] as const))(
    "keptHeaders of Headers agrees: %s",
    (_, raw) => {
      const headers = new Headers();
      for (let i = 0; i < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string);
      expect(JSON.stringify(keptHeaders(headers))).toBe(JSON.stringify(viaHeaders(raw)));
    },
  );

  it("drops hop-by-hop headers and those Connection names, and lower-cases the rest", () => {
    expect(
      keptRawHeaders(["Connection", "X-Hop", "X-Hop", "1", "Keep-Alive", "5", "Webhook-Id", "msg_1"]),
    ).toEqual({ "webhook-id": "msg_1" });
  });

  it("skips HTTP/2 pseudo-headers", () => {
    expect(keptRawHeaders([":method", "POST", ":path", "/x", "x-a", "1"])).toEqual({ "x-a": "1" });
  });
});

describe("the webhook route over a socket", () => {
  let close: (() => void) | undefined;
  afterEach(() => {
    close?.();
    vi.restoreAllMocks();
  });

  it("reads the raw header list, not a Headers object, and keeps the same headers", async () => {
    let seen: IngestRequest | undefined;
    const ingest = {
      ingest: (req: IngestRequest) => {
        seen = req;
        return Promise.resolve({ status: "accepted", id: "hk_test" });
      },
    } as unknown as IngestService;
    const app = new Hono().route(
      "/",
      webhookRoutes({
        ingest,
        sources: { src: {} as SourceConfig },
        metrics: new Metrics(),
        maxBodyBytes: 1024,
        tracing: TRACING_OFF,
      }),
    );
    const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
    close = () => server.close();
    await new Promise<void>((resolve) => server.once("listening", resolve));
    const forEach = vi.spyOn(Headers.prototype, "forEach");
    const raw = [
      "Content-Type",
      "application/json",
      "X-Dup",
      "a",
      "X-Dup",
      "b",
      "Cookie",
      "c=1",
      "Cookie",
      "d=2",
    ];
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port: (server.address() as AddressInfo).port,
          method: "POST",
          path: "/webhooks/src",
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      for (let i = 0; i < raw.length; i += 2) req.appendHeader(raw[i] as string, raw[i + 1] as string);
      req.on("error", reject);
      req.end("{}");
    });
    expect(status).toBe(202);
    expect(forEach).not.toHaveBeenCalled();
    // What Node sent besides ours (host, connection, content-length) is handled as any header is.
    expect(seen?.headers).toEqual({
      "content-type": "application/json",
      cookie: "c=1; d=2",
      host: expect.stringMatching(/^127\.0\.0\.1:\d+$/) as unknown as string,
      "x-dup": "a, b",
    });
  });
});

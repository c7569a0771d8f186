import { createHash, createHmac } from "node:crypto";
import { createServer } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";
import type { HttpSinkConfig } from "../../src/sinks/http/config.ts";
import type { DeliveryResult, SinkFailure } from "../../src/domain/error-class.ts";
import type { Delivery, HookRecord } from "../../src/domain/hook.ts";
import { newId, type ReplayId } from "../../src/domain/ids.ts";
import { decodeSecret, generateSecret } from "../../src/domain/signing.ts";
import { silentLogger } from "../../src/observability/logger.ts";
import { createHttpSink } from "../../src/sinks/http/http-sink.ts";
import type { Sink } from "../../src/sinks/sink.ts";
import { startReceiver, type ReceivedRequest, type Receiver, type Reply } from "../support/receiver.ts";
import { sinkTraits } from "../../src/sinks/registry.ts";

const BINARY = Buffer.from([0x00, 0xff, 0xfe, 0x80, 0xc3, 0x28, 0x0d, 0x0a, 0xe2, 0x82]);

function hook(body: Buffer, over: Partial<HookRecord> = {}): HookRecord {
  return {
    id: newId("hk"),
    source: "stripe",
    tenant: "acme",
    receivedAt: Date.now(),
    contentType: "application/x-test",
    headers: { "stripe-signature": "t=1,v1=abc" },
    body,
    sha256: createHash("sha256").update(body).digest("hex"),
    dedupKey: "evt_1",
    idempotencyKey: "acme:stripe:evt_1",
    sinks: ["forward"],
    ...over,
  };
}

function delivery(h: HookRecord, over: Partial<Delivery> = {}): Delivery {
  return { hook: h, sink: "forward", attempt: 1, replayId: undefined, claim: undefined, ...over };
}

function failure(result: DeliveryResult): SinkFailure {
  if (result.ok) throw new Error("expected a failure, got ok");
  return result.failure;
}

const open: { sinks: Sink[]; receivers: Receiver[] } = { sinks: [], receivers: [] };

afterEach(async () => {
  await Promise.all(open.receivers.splice(0).map((r) => r.close()));
  await Promise.all(open.sinks.splice(0).map((s) => s.close()));
});

async function setup(
  script: Reply[],
  config: Partial<HttpSinkConfig> & { path?: string } = {},
): Promise<{ rx: Receiver; sink: Sink }> {
  const rx = await startReceiver({ script });
  open.receivers.push(rx);
  const { path = "/hooks/in?x=1", ...rest } = config;
  const sink = createHttpSink(
    "forward",
    { type: "http", url: `${rx.url}${path}`, method: "POST", headers: {}, timeout_ms: 2000, ...rest },
    { logger: silentLogger(), defaultClaimCheckBytes: 65_536 },
  );
  open.sinks.push(sink);
  return { rx, sink };
}

function signatureHeaders(req: ReceivedRequest): Record<string, string> {
  const names = ["webhook-id", "webhook-timestamp", "webhook-signature"];
  return Object.fromEntries(names.map((n) => [n, String(req.headers[n])]));
}

const live = (): AbortSignal => new AbortController().signal;

describe("http sink", () => {
  it("forwards the exact bytes with the switchyard and signature headers on a 2xx", async () => {
    const secret = generateSecret();
    const { rx, sink } = await setup([202], {
      secret,
      headers: { "X-Custom": "yes", "Content-Type": "text/plain" },
    });
    const h = hook(BINARY);
    const replayId: ReplayId = newId("rp");
    const result = await sink.deliver(delivery(h, { attempt: 3, replayId }), live());
    expect(result).toMatchObject({ ok: true });

    const [req] = rx.requests;
    expect(req?.method).toBe("POST");
    expect(req?.path).toBe("/hooks/in?x=1");
    expect(req?.body.equals(BINARY)).toBe(true);
    expect(req?.headers).toMatchObject({
      "content-type": "application/x-test",
      "content-length": String(BINARY.length),
      "x-custom": "yes",
      "x-switchyard-id": h.id,
      "x-switchyard-source": "stripe",
      "x-switchyard-tenant": "acme",
      "x-switchyard-idempotency-key": "acme:stripe:evt_1",
      "x-switchyard-attempt": "3",
      "x-switchyard-replay-id": replayId,
      "webhook-id": h.id,
    });
    // The original provider's headers are not forwarded.
    expect(req?.headers["stripe-signature"]).toBeUndefined();
    // The JS verifiers decode bodies as UTF-8, so for binary bodies check the HMAC over the raw bytes.
    const ts = String(req?.headers["webhook-timestamp"]);
    expect(Math.abs(Number(ts) - Date.now() / 1000)).toBeLessThan(5);
    const mac = createHmac("sha256", decodeSecret(secret))
      .update(Buffer.concat([Buffer.from(`${h.id}.${ts}.`), BINARY]))
      .digest("base64");
    expect(req?.headers["webhook-signature"]).toBe(`v1,${mac}`);
  });

  it("sends a signature the standardwebhooks verifier accepts, with a webhook-id stable across attempts", async () => {
    const secret = generateSecret();
    const { rx, sink } = await setup([500, 200], { secret });
    const body = Buffer.from(JSON.stringify({ id: "evt_1", amount: 4.2, name: "Zoë" }));
    const h = hook(body, { tenant: undefined, contentType: undefined });
    expect(failure(await sink.deliver(delivery(h, { attempt: 1 }), live())).kind).toBe("transient");
    expect(await sink.deliver(delivery(h, { attempt: 2 }), live())).toMatchObject({ ok: true });

    const verifier = new Webhook(secret);
    for (const req of rx.requests) {
      expect(verifier.verify(req.body, signatureHeaders(req))).toEqual({
        id: "evt_1",
        amount: 4.2,
        name: "Zoë",
      });
      expect(req.headers["webhook-id"]).toBe(h.id);
      expect(req.headers["content-type"]).toBe("application/octet-stream");
      expect(req.headers["x-switchyard-tenant"]).toBeUndefined();
      expect(req.headers["x-switchyard-replay-id"]).toBeUndefined();
    }
    expect(rx.requests.map((r) => r.headers["x-switchyard-attempt"])).toEqual(["1", "2"]);
    const first = rx.requests[0]!;
    expect(() => new Webhook(generateSecret()).verify(first.body, signatureHeaders(first))).toThrow(
      /No matching signature/,
    );
  });

  it("sends no signature headers without a secret, and uses the configured method", async () => {
    const { rx, sink } = await setup([200], { method: "PUT" });
    expect(await sink.deliver(delivery(hook(BINARY)), live())).toMatchObject({ ok: true });
    expect(rx.requests[0]?.method).toBe("PUT");
    expect(rx.requests[0]?.headers["webhook-signature"]).toBeUndefined();
  });

  it("classifies 410 as permanent and 401 as a config error", async () => {
    const { sink } = await setup([{ status: 410, body: "gone" }, 401]);
    expect(failure(await sink.deliver(delivery(hook(BINARY)), live()))).toEqual({
      kind: "permanent",
      config: false,
      reason: "HTTP 410: gone",
      statusCode: 410,
    });
    expect(failure(await sink.deliver(delivery(hook(BINARY)), live()))).toMatchObject({
      kind: "permanent",
      config: true,
    });
  });

  it("honours Retry-After on a 429, as seconds or an HTTP-date, and throttles without a hint", async () => {
    const inThree = new Date(Date.now() + 3000).toUTCString();
    const { sink } = await setup([
      { status: 429, headers: { "retry-after": "2" } },
      { status: 429, headers: { "retry-after": inThree } },
      429,
    ]);
    expect(failure(await sink.deliver(delivery(hook(BINARY)), live()))).toEqual({
      kind: "retry_after",
      ms: 2000,
      reason: "HTTP 429",
      statusCode: 429,
    });
    const dated = failure(await sink.deliver(delivery(hook(BINARY)), live()));
    expect(dated.kind).toBe("retry_after");
    const ms = dated.kind === "retry_after" ? dated.ms : undefined;
    expect(ms).toBeGreaterThan(1000);
    expect(ms).toBeLessThanOrEqual(3000);
    expect(failure(await sink.deliver(delivery(hook(BINARY)), live()))).toMatchObject({
      kind: "retry_after",
      ms: undefined,
    });
  });

  it("classifies 503 as transient and drains answers so connections are reused", async () => {
    const { rx, sink } = await setup([{ status: 503, body: "busy" }], { path: "/" });
    rx.setFallback({ status: 200, body: "thanks ".repeat(500) });
    expect(failure(await sink.deliver(delivery(hook(BINARY)), live()))).toEqual({
      kind: "transient",
      reason: "HTTP 503: busy",
      statusCode: 503,
    });
    for (let i = 0; i < 7; i++)
      expect(await sink.deliver(delivery(hook(BINARY)), live())).toMatchObject({ ok: true });
    // undici frees a connection a tick after the body ends, so sequential requests alternate between two;
    // an undrained body would pin each connection and open a new one per request.
    expect(new Set(rx.requests.map((r) => r.remotePort)).size).toBeLessThanOrEqual(2);
  });

  it("gives up on a destination that never answers after timeout_ms, and drops the request", async () => {
    const { rx, sink } = await setup(["hang"], { timeout_ms: 200 });
    const started = Date.now();
    const f = failure(await sink.deliver(delivery(hook(BINARY)), live()));
    const took = Date.now() - started;
    expect(f).toEqual({ kind: "transient", reason: "timeout: no answer within 200 ms" });
    expect(took).toBeGreaterThanOrEqual(190);
    expect(took).toBeLessThan(1500);
    const [req] = await rx.waitForRequests(1);
    await req!.closed;
    expect(req!.answered).toBe(false);
  });

  it("does not follow a redirect", async () => {
    const { rx, sink } = await setup([{ status: 302, headers: { location: "/elsewhere?sig=x" } }, 200]);
    const f = failure(await sink.deliver(delivery(hook(BINARY)), live()));
    expect(f).toEqual({
      kind: "permanent",
      config: false,
      reason: "HTTP 302: redirect to /elsewhere not followed",
      statusCode: 302,
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(rx.requests).toHaveLength(1);
  });

  it("classifies a refused connection as transient", async () => {
    const port = await new Promise<number>((resolve) => {
      const srv = createServer();
      srv.listen(0, "127.0.0.1", () => {
        const p = (srv.address() as { port: number }).port;
        srv.close(() => resolve(p));
      });
    });
    const sink = createHttpSink(
      "dead",
      { type: "http", url: `http://127.0.0.1:${port}/x`, method: "POST", headers: {}, timeout_ms: 2000 },
      { logger: silentLogger(), defaultClaimCheckBytes: 65_536 },
    );
    open.sinks.push(sink);
    const f = failure(await sink.deliver(delivery(hook(BINARY)), live()));
    expect(f.kind).toBe("transient");
    expect(f.reason).toContain("ECONNREFUSED");
  });

  it("classifies a connection reset mid-request as transient", async () => {
    const { sink } = await setup(["reset"]);
    expect(failure(await sink.deliver(delivery(hook(BINARY)), live())).kind).toBe("transient");
  });

  it("stops quickly when the caller's signal aborts", async () => {
    const { rx, sink } = await setup(["hang"], { timeout_ms: 10_000 });
    const controller = new AbortController();
    const pending = sink.deliver(delivery(hook(BINARY)), controller.signal);
    await rx.waitForRequests(1);
    const started = Date.now();
    controller.abort();
    expect(failure(await pending)).toEqual({ kind: "transient", reason: "attempt aborted" });
    expect(Date.now() - started).toBeLessThan(500);
    await rx.requests[0]!.closed;

    expect(failure(await sink.deliver(delivery(hook(BINARY)), AbortSignal.abort())).kind).toBe("transient");
    expect(rx.requests).toHaveLength(1);
  });

  it("keeps at most the first KiB of a large error body in the reason", async () => {
    const big = `${"a".repeat(1000)}${"b".repeat(1000)}${"TAIL".repeat(50_000)}`;
    const { sink } = await setup([{ status: 500, body: big }]);
    const f = failure(await sink.deliver(delivery(hook(BINARY)), live()));
    expect(f.reason.startsWith("HTTP 500: aaaa")).toBe(true);
    expect(f.reason.length).toBeLessThanOrEqual(1024);
    expect(f.reason).not.toContain("TAIL");
  });

  it("sends URL userinfo as Basic auth and never shows it in describe()", async () => {
    const rx = await startReceiver({ script: [200] });
    open.receivers.push(rx);
    const url = rx.url.replace("http://", "http://user:p%40ss@");
    const sink = createHttpSink(
      "auth",
      { type: "http", url: `${url}/in?q=1`, method: "POST", headers: {}, timeout_ms: 2000 },
      { logger: silentLogger(), defaultClaimCheckBytes: 65_536 },
    );
    open.sinks.push(sink);
    expect(await sink.deliver(delivery(hook(BINARY)), live())).toMatchObject({ ok: true });
    expect(rx.requests[0]?.headers.authorization).toBe(
      `Basic ${Buffer.from("user:p@ss").toString("base64")}`,
    );
    expect(sink.describe({ source: "stripe", tenant: undefined })).toEqual({
      payload: "body",
      protocol: "http",
      host: rx.url,
      address: "/in",
    });
    expect(sink).toMatchObject({ type: "http", inlineMaxBytes: undefined });
    expect(sinkTraits(sink.type)).toMatchObject({ durable: true, claimCheck: false });
  });

  it("refuses an unusable secret at construction", () => {
    expect(() =>
      createHttpSink(
        "bad",
        {
          type: "http",
          url: "http://127.0.0.1:1/",
          method: "POST",
          headers: {},
          timeout_ms: 10,
          secret: "whsec_",
        },
        { logger: silentLogger(), defaultClaimCheckBytes: 65_536 },
      ),
    ).toThrow(/sink "bad"/);
  });
});

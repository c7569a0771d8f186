import { describe, expect, it } from "vitest";
import type { DeliveryResult, SinkFailure } from "../../src/domain/error-class.ts";
import { classifyAnswer, classifyError, parseRetryAfter } from "../../src/sinks/http-classify.ts";

const NOW = Date.parse("2025-01-01T00:00:00Z");

function answer(status: number, headers: Record<string, string> = {}, bodyStart = ""): DeliveryResult {
  return classifyAnswer({ status, headers, bodyStart }, NOW);
}

function failure(result: DeliveryResult): SinkFailure {
  if (result.ok) throw new Error("expected a failure");
  return result.failure;
}

describe("parseRetryAfter", () => {
  it("reads delta-seconds", () => {
    expect(parseRetryAfter("2", NOW)).toBe(2000);
    expect(parseRetryAfter(" 120 ", NOW)).toBe(120_000);
  });

  it("reads an HTTP-date relative to now", () => {
    expect(parseRetryAfter("Wed, 01 Jan 2025 00:00:30 GMT", NOW)).toBe(30_000);
  });

  it("ignores absent, zero, past, negative and garbage values", () => {
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined();
    expect(parseRetryAfter("", NOW)).toBeUndefined();
    expect(parseRetryAfter("0", NOW)).toBeUndefined();
    expect(parseRetryAfter("Tue, 31 Dec 2024 23:59:00 GMT", NOW)).toBeUndefined();
    expect(parseRetryAfter("-5", NOW)).toBeUndefined();
    expect(parseRetryAfter("1.5", NOW)).toBeUndefined();
    expect(parseRetryAfter("soon", NOW)).toBeUndefined();
  });
});

describe("classifyAnswer", () => {
  it("treats every 2xx as ok", () => {
    for (const s of [200, 201, 202, 204, 299]) expect(answer(s)).toEqual({ ok: true });
  });

  it("makes 400/404/410/413/422 and other 4xx permanent, not config", () => {
    for (const s of [400, 404, 409, 410, 413, 418, 422]) {
      expect(failure(answer(s))).toMatchObject({ kind: "permanent", config: false });
    }
  });

  it("makes 401/403 permanent config errors", () => {
    for (const s of [401, 403]) expect(failure(answer(s))).toMatchObject({ kind: "permanent", config: true });
  });

  it("makes 408 and 5xx transient without Retry-After", () => {
    for (const s of [408, 500, 502, 503, 504, 599]) expect(failure(answer(s)).kind).toBe("transient");
  });

  it("makes 408/429/5xx retry_after when Retry-After gives a delay", () => {
    for (const s of [408, 429, 503]) {
      expect(failure(answer(s, { "retry-after": "7" }))).toMatchObject({ kind: "retry_after", ms: 7000 });
    }
    expect(failure(answer(503, { "retry-after": "Wed, 01 Jan 2025 00:01:00 GMT" }))).toMatchObject({
      kind: "retry_after",
      ms: 60_000,
    });
  });

  it("makes 429 a throttle with no hint when Retry-After is absent or useless", () => {
    expect(failure(answer(429))).toEqual({
      kind: "retry_after",
      ms: undefined,
      reason: "HTTP 429",
      statusCode: 429,
    });
    expect(failure(answer(429, { "retry-after": "Tue, 31 Dec 2024 00:00:00 GMT" }))).toMatchObject({
      kind: "retry_after",
      ms: undefined,
    });
    // A past date on a 503 is ignored, leaving a plain transient failure.
    expect(failure(answer(503, { "retry-after": "Tue, 31 Dec 2024 00:00:00 GMT" })).kind).toBe("transient");
  });

  it("does not follow redirects: 3xx is permanent and names the target without credentials or query", () => {
    const f = failure(answer(302, { location: "https://user:pw@other.example/new?token=s3cret" }));
    expect(f).toMatchObject({ kind: "permanent", config: false });
    expect(f.reason).toBe("HTTP 302: redirect to https://other.example/new not followed");
    expect(failure(answer(301, { location: "/moved" })).reason).toBe(
      "HTTP 301: redirect to /moved not followed",
    );
    expect(failure(answer(307)).reason).toContain("(no location)");
  });

  it("makes a final 1xx or an out-of-range status transient", () => {
    expect(failure(answer(101)).kind).toBe("transient");
    expect(failure(answer(600)).kind).toBe("transient");
  });

  it("puts the status and the start of the body on one bounded line", () => {
    expect(failure(answer(503, {}, "down for\r\nmaintenance\u0000")).reason).toBe(
      "HTTP 503: down for maintenance",
    );
    const long = answer(500, {}, "x".repeat(5000));
    expect(failure(long).reason.length).toBeLessThanOrEqual(1024);
  });
});

describe("classifyError", () => {
  function err(code: string, message = "boom", cause?: unknown): Error {
    return Object.assign(new Error(message, { cause }), { code });
  }

  it("makes network errors and timeouts transient, with their code in the reason", () => {
    for (const code of [
      "ECONNREFUSED",
      "ECONNRESET",
      "UND_ERR_SOCKET",
      "UND_ERR_HEADERS_TIMEOUT",
      "ENOTFOUND",
    ]) {
      const f = failure(classifyError(err(code)));
      expect(f.kind).toBe("transient");
      expect(f.reason).toBe(`${code}: boom`);
    }
    expect(failure(classifyError(err("UND_ERR_SOCKET", "other side closed", err("ECONNRESET")))).reason).toBe(
      "UND_ERR_SOCKET/ECONNRESET: other side closed",
    );
    expect(failure(classifyError("weird"))).toEqual({ kind: "transient", reason: "weird" });
  });

  it("makes undici refusing the request (a bad configured header) a config error", () => {
    expect(failure(classifyError(err("UND_ERR_INVALID_ARG", "invalid connection header")))).toMatchObject({
      kind: "permanent",
      config: true,
    });
  });
});

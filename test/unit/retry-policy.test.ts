import { describe, expect, it } from "vitest";
import { permanent, retryAfter, transient } from "../../src/domain/error-class.ts";
import { backoffMs, decideRetry, retryDelayMs, throttleMs } from "../../src/domain/retry-policy.ts";

const policy = { base_ms: 1000, max_ms: 3_600_000, max_attempts: 25, max_elapsed_ms: 86_400_000 };
const fail = <T extends { ok: false; failure: unknown }>(r: unknown) => (r as T).failure as never;
const top = () => 1 - 1e-12;
const bottom = () => 0;

describe("backoff", () => {
  it("is full jitter: uniform in 1..min(max, base·2^(attempt−1))", () => {
    expect(backoffMs(policy, 1, bottom)).toBe(1);
    expect(backoffMs(policy, 1, top)).toBe(1000);
    expect(backoffMs(policy, 4, top)).toBe(8000);
    expect(backoffMs(policy, 40, top)).toBe(3_600_000);
    expect(backoffMs(policy, 5000, top)).toBe(3_600_000);
  });

  it("throttle without a hint draws from 1..min(30000, 500·2^(attempt−1))", () => {
    expect(throttleMs(1, top)).toBe(500);
    expect(throttleMs(3, top)).toBe(2000);
    expect(throttleMs(10, top)).toBe(30_000);
    expect(throttleMs(1, bottom)).toBe(1);
  });
});

describe("retry delay", () => {
  it("honours retry_after but never below the backoff, capped at max_retry_after_ms", () => {
    expect(retryDelayMs(fail(retryAfter(2000, "x")), 1, policy, 3_600_000, bottom)).toBe(2000);
    expect(retryDelayMs(fail(retryAfter(10, "x")), 3, policy, 3_600_000, top)).toBe(4000);
    expect(retryDelayMs(fail(retryAfter(10_000_000, "x")), 1, policy, 60_000, bottom)).toBe(60_000);
  });

  it("a throttle without a hint uses the throttle jitter", () => {
    expect(retryDelayMs(fail(retryAfter(undefined, "x")), 1, { base_ms: 1, max_ms: 1 }, 3_600_000, top)).toBe(
      500,
    );
  });
});

describe("decideRetry", () => {
  const base = { attempt: 1, firstAttemptAt: 0, now: 10, policy, maxRetryAfterMs: 3_600_000, random: bottom };

  it("dead-letters a permanent failure at once", () => {
    expect(decideRetry({ ...base, failure: fail(permanent("gone")) })).toEqual({
      kind: "dead",
      errorClass: "permanent",
      why: "permanent",
    });
  });

  it("retries a transient failure with backoff", () => {
    expect(decideRetry({ ...base, failure: fail(transient("boom")) })).toEqual({ kind: "retry", delayMs: 1 });
  });

  it("gives up after max_attempts with the class of the last failure", () => {
    expect(decideRetry({ ...base, attempt: 25, failure: fail(retryAfter(5, "slow")) })).toEqual({
      kind: "dead",
      errorClass: "throttled",
      why: "attempts",
    });
  });

  it("gives up once max_elapsed_ms has passed since the first attempt", () => {
    const d = decideRetry({ ...base, now: 86_400_000, failure: fail(transient("boom")) });
    expect(d).toEqual({ kind: "dead", errorClass: "transient", why: "elapsed" });
    expect(decideRetry({ ...base, now: 86_399_999, failure: fail(transient("boom")) }).kind).toBe("retry");
  });
});

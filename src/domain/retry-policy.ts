// When to try a failed delivery again, and when to give up. Pure: the caller passes the clock and
// the random source, so every rule here is unit-tested without waiting.
import type { RetryConfig } from "../config/schema.ts";
import { type ErrorClass, type SinkFailure, errorClassOf } from "./error-class.ts";

/** Uniform in [0, 1), like Math.random. */
export type Random = () => number;

const THROTTLE_CAP_MS = 30_000;
const THROTTLE_BASE_MS = 500;

function capped(base: number, attempt: number, cap: number): number {
  // 2^(attempt-1) overflows to Infinity for huge attempts; Math.min handles that.
  return Math.min(cap, base * 2 ** Math.max(0, attempt - 1));
}

/** Exponential backoff with full jitter: uniform in 1..min(max_ms, base_ms·2^(attempt−1)). */
export function backoffMs(
  policy: Pick<RetryConfig, "base_ms" | "max_ms">,
  attempt: number,
  random: Random,
): number {
  return 1 + Math.floor(random() * capped(policy.base_ms, attempt, policy.max_ms));
}

/** A throttle with no hint: uniform in 1..min(30000, 500·2^(attempt−1)) ms. */
export function throttleMs(attempt: number, random: Random): number {
  return 1 + Math.floor(random() * capped(THROTTLE_BASE_MS, attempt, THROTTLE_CAP_MS));
}

/** How long to wait after `failure` on `attempt` (1-based), before any give-up check. */
export function retryDelayMs(
  failure: SinkFailure,
  attempt: number,
  policy: Pick<RetryConfig, "base_ms" | "max_ms">,
  maxRetryAfterMs: number,
  random: Random,
): number {
  const backoff = backoffMs(policy, attempt, random);
  switch (failure.kind) {
    case "transient":
      return backoff;
    case "retry_after": {
      const asked = failure.ms ?? throttleMs(attempt, random);
      return Math.max(Math.min(asked, maxRetryAfterMs), backoff);
    }
    case "permanent":
      return 0;
  }
}

export type RetryDecision =
  | { readonly kind: "retry"; readonly delayMs: number }
  | {
      readonly kind: "dead";
      readonly errorClass: ErrorClass;
      readonly why: "permanent" | "attempts" | "elapsed";
    };

/** Retry or dead-letter a failed attempt. */
export function decideRetry(input: {
  readonly failure: SinkFailure;
  readonly attempt: number;
  readonly firstAttemptAt: number;
  readonly now: number;
  readonly policy: RetryConfig;
  readonly maxRetryAfterMs: number;
  readonly random: Random;
}): RetryDecision {
  const { failure, attempt, policy } = input;
  const errorClass = errorClassOf(failure);
  if (failure.kind === "permanent") return { kind: "dead", errorClass, why: "permanent" };
  if (attempt >= policy.max_attempts) return { kind: "dead", errorClass, why: "attempts" };
  if (input.now - input.firstAttemptAt >= policy.max_elapsed_ms)
    return { kind: "dead", errorClass, why: "elapsed" };
  return {
    kind: "retry",
    delayMs: retryDelayMs(failure, attempt, policy, input.maxRetryAfterMs, input.random),
  };
}

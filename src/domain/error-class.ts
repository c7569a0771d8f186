// The three ways a delivery can fail, and what each means for retries, the breaker and the DLQ.
// Every sink answers in these terms, so dispatch can treat HTTP, AMQP and Kafka alike.

/** A sink's failure, as the sink classifies it. */
export type SinkFailure = (
  | { readonly kind: "permanent"; readonly reason: string; readonly config: boolean }
  | { readonly kind: "retry_after"; readonly ms: number | undefined; readonly reason: string }
  | { readonly kind: "transient"; readonly reason: string; readonly cancelled?: true }
) & {
  /** The destination's HTTP status, when it answered with one. */
  readonly statusCode?: number;
};

/**
 * What an attempt saw of the exchange, beyond its outcome, for the row's attempt history: the answer's
 * status and the start of its body, and the signature headers the request carried.
 */
export interface AttemptTrace {
  readonly statusCode?: number | undefined;
  /** The first ≤ 1 KiB of the response body, as text. */
  readonly excerpt?: string | undefined;
  readonly signatureHeaders?: Readonly<Record<string, string>> | undefined;
}

/** What one attempt at one sink came to (`trace`: what it saw, when the sink reports it). */
export type DeliveryResult = (
  { readonly ok: true } | { readonly ok: false; readonly failure: SinkFailure }
) & { readonly trace?: AttemptTrace };

/** Why a delivery was dead-lettered, as an operator filters on it. */
export type ErrorClass = "permanent" | "throttled" | "transient";
export const ERROR_CLASSES: readonly ErrorClass[] = ["permanent", "throttled", "transient"];

export const ok: DeliveryResult = { ok: true };

export function permanent(reason: string, opts: { config?: boolean } = {}): DeliveryResult {
  return { ok: false, failure: { kind: "permanent", reason, config: opts.config ?? false } };
}

/** `ms` undefined means the destination throttled without saying for how long. */
export function retryAfter(ms: number | undefined, reason: string): DeliveryResult {
  return { ok: false, failure: { kind: "retry_after", ms, reason } };
}

export function transient(reason: string): DeliveryResult {
  return { ok: false, failure: { kind: "transient", reason } };
}

/**
 * The attempt was stopped by this process (shutting down), not answered by the destination: it is
 * handed back without spending an attempt and never counts against the destination.
 */
export function cancelled(reason: string): DeliveryResult {
  return { ok: false, failure: { kind: "transient", reason, cancelled: true } };
}

/** Was this attempt cancelled before the destination answered (shutdown, or nothing was sent)? */
export function wasCancelled(result: DeliveryResult): boolean {
  return !result.ok && result.failure.kind === "transient" && result.failure.cancelled === true;
}

/** `result` with the HTTP status the destination answered (a failure keeps it for the ledger). */
export function withStatusCode(result: DeliveryResult, statusCode: number): DeliveryResult {
  return result.ok ? result : { ok: false, failure: { ...result.failure, statusCode } };
}

export function errorClassOf(failure: SinkFailure): ErrorClass {
  switch (failure.kind) {
    case "permanent":
      return "permanent";
    case "retry_after":
      return "throttled";
    case "transient":
      return "transient";
  }
}

/** Does this failure count toward the sink's circuit breaker? Permanent ones are the hook's fault, not the sink's. */
export function countsForBreaker(failure: SinkFailure): boolean {
  return failure.kind !== "permanent" && !(failure.kind === "transient" && failure.cancelled);
}

const MAX_REASON = 1024;

/** A reason fit to store and show: bounded, one line. Callers never pass secrets or whole bodies. */
export function boundReason(reason: string): string {
  const flat = reason.replace(/[\r\n]+/g, " ");
  return flat.length > MAX_REASON ? `${flat.slice(0, MAX_REASON - 1)}…` : flat;
}

// One attempt of a delivery, as its row's history keeps it: what was sent when, how long the destination
// took and what it answered. Operators and the tenant portal read it to see why a delivery is failing
// without a log search; the row keeps only the last few, bounded in count and bytes.
import type { DeliveryResult, ErrorClass } from "./error-class.ts";
import { errorClassOf } from "./error-class.ts";

export interface Attempt {
  /** When the attempt was sent, ms since the epoch. */
  readonly at: number;
  readonly durationMs: number;
  readonly statusCode?: number | undefined;
  /** A failed attempt's class and reason; undefined for a delivered one. */
  readonly errorClass?: ErrorClass | undefined;
  readonly reason?: string | undefined;
  /** The first ≤ 1 KiB of the response body, as text. */
  readonly responseExcerpt?: string | undefined;
  /** The signature headers the request carried (outbound: webhook-id, webhook-timestamp, webhook-signature). */
  readonly signatureHeaders?: Readonly<Record<string, string>> | undefined;
}

/** How much history a row keeps: the newest `count` attempts within `bytes` (oldest dropped first). */
export const ATTEMPT_HISTORY = { count: 10, bytes: 16 * 1024 } as const;

/** Characters of a failure reason an attempt keeps (the row's last_error keeps the whole bounded reason). */
const MAX_ATTEMPT_REASON = 512;

/** The attempt `result` records, sent at `startedAt` and answered (or given up) at `finishedAt`. */
export function attemptOf(result: DeliveryResult, startedAt: number, finishedAt: number): Attempt {
  const trace = result.trace;
  const base = {
    at: startedAt,
    durationMs: Math.max(0, finishedAt - startedAt),
    responseExcerpt: trace?.excerpt === "" ? undefined : trace?.excerpt,
    signatureHeaders: trace?.signatureHeaders,
  };
  if (result.ok) return { ...base, statusCode: trace?.statusCode };
  const { failure } = result;
  const reason =
    failure.reason.length > MAX_ATTEMPT_REASON
      ? `${failure.reason.slice(0, MAX_ATTEMPT_REASON - 1)}…`
      : failure.reason;
  return { ...base, statusCode: failure.statusCode, errorClass: errorClassOf(failure), reason };
}

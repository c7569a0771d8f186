// How a broker's answer becomes a delivery result. Kept apart from the I/O so the mapping that decides
// "retry" versus "dead-letter and page the operator" can be read and unit-tested in one place.
import { boundReason, permanent, transient } from "../../domain/error-class.ts";
import type { DeliveryResult } from "../../domain/error-class.ts";

/** A failed delivery result: what every failure path of the AMQP sink produces. */
export type FailedResult = Extract<DeliveryResult, { ok: false }>;

/** Is `value` a failed delivery result (as opposed to the channel or connection an operation was after)? */
export function isFailure(value: unknown): value is FailedResult {
  return (
    typeof value === "object" && value !== null && "ok" in value && value.ok === false && "failure" in value
  );
}

/** AMQP reply codes we act on (AMQP 0-9-1 §1.9 constants). */
export const REPLY_CODES = {
  NOT_FOUND: 404,
  ACCESS_REFUSED: 403,
  NOT_ALLOWED: 530,
  NO_ROUTE: 312,
} as const;

function fail(result: DeliveryResult): FailedResult {
  if (result.ok) throw new Error("expected a failed result");
  return result;
}

function codeOf(err: unknown): number | undefined {
  if (typeof err !== "object" || err === null || !("code" in err)) return undefined;
  const code = (err as { code: unknown }).code;
  return typeof code === "number" ? code : undefined;
}

function messageOf(err: unknown): string {
  if (err instanceof Error) return err.message;
  return typeof err === "string" ? err : "unknown error";
}

/**
 * Classify an error from the broker or the client library. `context` says what was being done
 * ("publish", "connect", "check exchange") and prefixes the reason.
 *
 * - 404 NOT_FOUND (the exchange does not exist), 403 ACCESS_REFUSED (login refused, or no permission on the
 *   exchange) and 530 NOT_ALLOWED (a vhost the user may not open) are configuration problems: retrying cannot
 *   help until an operator acts.
 * - Everything else (connection loss, socket errors, timeouts, other channel errors) is transient.
 *
 * amqplib puts the reply code on `err.code` for channel and connection closes, but a refused login during the
 * handshake only says `403 (ACCESS-REFUSED)` in its message, so the message is checked too.
 */
export function classifyAmqpError(err: unknown, context: string): FailedResult {
  const code = codeOf(err);
  const message = messageOf(err);
  const reason = boundReason(`${context}: ${message}`);
  if (code === REPLY_CODES.NOT_FOUND || (code === undefined && /\bNOT[-_]FOUND\b/.test(message))) {
    return fail(permanent(reason, { config: true }));
  }
  if (code === REPLY_CODES.ACCESS_REFUSED || /\bACCESS[-_]REFUSED\b/.test(message)) {
    return fail(permanent(reason, { config: true }));
  }
  // amqplib drops the reply code when the broker closes the connection instead of opening the vhost.
  if (
    code === REPLY_CODES.NOT_ALLOWED ||
    /\bNOT[-_]ALLOWED\b|Expected ConnectionOpenOk; got <ConnectionClose/.test(message)
  ) {
    return fail(permanent(reason, { config: true }));
  }
  return fail(transient(reason));
}

/** A mandatory publish the broker returned: no queue is bound for its routing key. */
export function unroutable(routingKey: string, replyCode: number, replyText: string): FailedResult {
  return fail(
    transient(
      boundReason(`unroutable: no queue bound for routing key "${routingKey}" (${replyCode} ${replyText})`),
    ),
  );
}

/** The broker refused responsibility for a message (basic.nack): an internal broker error, worth a retry. */
export function nacked(): FailedResult {
  return fail(transient("broker nacked the message"));
}

/** Any transient failure with a fixed reason (aborted, closed, waiting for a reconnect). */
export function transientFailure(reason: string): FailedResult {
  return fail(transient(boundReason(reason)));
}

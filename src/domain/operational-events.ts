// Operational events: facts the gateway publishes about itself (an endpoint disabled, a delivery
// exhausted, a breaker opened, …) as ordinary outbound events of the reserved `switchyard.*` types, so an
// application or a tenant hears of them the way it hears of anything else: signed, retried, idempotent.
// This module is the contract every emitter and the publisher share: the type names, the payload each
// carries, and the one event id of each fact (so a retried emitting step can never send a fact twice).
// It does no I/O.

/** Every operational event type's name starts with this; applications may not publish under it. */
export const OPERATIONAL_PREFIX = "switchyard.";

export const OPERATIONAL_TYPES = [
  "switchyard.endpoint.created",
  "switchyard.endpoint.updated",
  "switchyard.endpoint.deleted",
  "switchyard.endpoint.disabled",
  "switchyard.endpoint.enabled",
  "switchyard.delivery.failing",
  "switchyard.delivery.exhausted",
  "switchyard.delivery.recovered",
  "switchyard.hook.dead",
  "switchyard.breaker.opened",
  "switchyard.breaker.closed",
  "switchyard.dlq.threshold",
  "switchyard.replay.finished",
] as const;

export type OperationalType = (typeof OPERATIONAL_TYPES)[number];

/** Is `type` one of the reserved operational types' namespace (`switchyard.…`)? */
export function isOperationalType(type: string): boolean {
  return type.startsWith(OPERATIONAL_PREFIX);
}

/**
 * The per-delivery types: one fact per delivery (or per hook and sink), so a burst of failures could
 * raise thousands of them; they are counted against a per-target budget, unlike the rare facts.
 */
export const PER_DELIVERY_TYPES: ReadonlySet<OperationalType> = new Set([
  "switchyard.delivery.failing",
  "switchyard.delivery.exhausted",
  "switchyard.delivery.recovered",
  "switchyard.hook.dead",
]);

/**
 * One fact waiting in an outbox: written by the step that decides the fact (in the same script where
 * that step is a script), published and removed by the drainer. Stored as JSON under its event id.
 */
export interface OutboxEntry {
  readonly type: OperationalType;
  /** The tenant the fact is about (its endpoint's, delivery's, hook's or replay's); absent: none. */
  readonly tenant?: string | undefined;
  /** When the fact was decided (ms since the epoch); the event's timestamp. */
  readonly at: number;
  /**
   * The target whose budget a per-delivery fact counts against (`endpoint:<id>` or `sink:<name>`);
   * absent for the rare facts, which are never held back.
   */
  readonly budget?: string | undefined;
  /** The event's payload (the `data` of the Standard Webhooks body). */
  readonly data: Readonly<Record<string, unknown>>;
}

/**
 * The event id of one fact: `op:<type without the prefix>:<subject>[:<n>]`, made of the subject's own id
 * and, where one subject has the fact more than once, the counter that tells the occurrences apart (an
 * endpoint's version, a breaker's change version, a row's attempt count). Within the event id grammar
 * (`A-Z a-z 0-9 _ . : -`, at most 128) for every id Switchyard makes.
 */
export function operationalEventId(type: OperationalType, subject: string, n?: number | string): string {
  const short = type.slice(OPERATIONAL_PREFIX.length);
  return n === undefined ? `op:${short}:${subject}` : `op:${short}:${subject}:${n}`;
}

// --- The per-delivery facts' payloads (decided in src/store/lua/ops/delivery-facts.lua) ---
// Times are ISO 8601 strings in UTC with milliseconds, as `Date#toISOString` writes them. A field
// marked optional is left out (never null) when it has no value: `tenant` for a delivery of no tenant,
// `status_code` when no HTTP status was received (a timeout, a refused connection, a queue sink).

/** The last attempt of a delivery, as a failing or dead fact carries it. */
export interface LastAttemptPayload {
  /** When it was made; absent when the delivery died without ever being attempted. */
  readonly at?: string;
  readonly status_code?: number;
  /** The error class (`transient`, `permanent`, `timeout`, …), as the DLQ shows it. */
  readonly error_class?: string;
  /** The error as recorded (at most 1,024 characters). */
  readonly error?: string;
}

/** What every outbound delivery fact names: the delivery, its event and its endpoint. */
export interface OutboundDeliveryPayload {
  readonly delivery_id: string;
  /** The published event's id, as its publisher gave it (without the tenant scope). */
  readonly event_id: string;
  readonly event_type: string;
  readonly endpoint_id: string;
  readonly tenant?: string;
  /** Attempts made so far (this run: a replay starts the count again). */
  readonly attempts: number;
}

/** `switchyard.delivery.failing`: the attempt count reached `operational.failing_after`, all failed. */
export interface DeliveryFailingPayload extends OutboundDeliveryPayload {
  /** `retrying` (another attempt is due at next_attempt_at) or `dead` (this was the last). */
  readonly state: "retrying" | "dead";
  readonly last_attempt: LastAttemptPayload;
  /** When the next attempt is due; only while retrying. */
  readonly next_attempt_at?: string;
}

/** `switchyard.delivery.exhausted`: the delivery is dead (in the DLQ). */
export interface DeliveryExhaustedPayload extends OutboundDeliveryPayload {
  readonly last_attempt: LastAttemptPayload;
  readonly dead_at: string;
}

/** `switchyard.delivery.recovered`: a delivery `failing` was sent for has been delivered. */
export interface DeliveryRecoveredPayload extends OutboundDeliveryPayload {
  /** The status the endpoint answered the successful attempt with. */
  readonly status_code?: number;
  readonly delivered_at: string;
}

/** `switchyard.hook.dead`: an inbound hook's delivery to one sink is dead (in the DLQ). */
export interface HookDeadPayload {
  readonly delivery_id: string;
  readonly hook_id: string;
  readonly source: string;
  readonly sink: string;
  readonly tenant?: string;
  readonly attempts: number;
  readonly last_attempt: LastAttemptPayload;
  readonly dead_at: string;
}

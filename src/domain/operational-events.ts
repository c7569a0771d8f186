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

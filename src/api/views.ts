// How the admin API shows the ledger: one view of a delivery row and one of a DLQ entry, shared by
// every route that answers with them, typed by the schemas the API declares for them.
import type { z } from "zod";
import type { DeliveryRow } from "../domain/delivery.ts";
import type { DlqEntry } from "../domain/dlq.ts";
import type { Delivery, DlqEntry as DlqEntryView } from "./contract/ledger.ts";

export { CREDENTIAL_HEADER } from "../domain/endpoint-snapshot.ts";

/** Milliseconds since the epoch as ISO 8601, or undefined. */
export function iso(ms: number | undefined): string | undefined {
  return ms === undefined || !Number.isFinite(ms) ? undefined : new Date(ms).toISOString();
}

/** An instant every record has (created, received…) as ISO 8601. */
export function isoAt(ms: number): string {
  return new Date(ms).toISOString();
}

/** A delivery's state with timestamps as ISO strings, and its DLQ id when it is dead. */
export function deliveryView(row: DeliveryRow): z.infer<typeof Delivery> {
  // `sending` is an internal moment of an attempt; operators know it as still pending or retrying.
  const state = row.state === "sending" ? (row.attempts > 1 ? "retrying" : "pending") : row.state;
  return {
    delivery_id: row.id,
    state,
    attempts: row.attempts,
    first_attempt_at: iso(row.firstAttemptAt),
    last_attempt_at: iso(row.lastAttemptAt),
    next_attempt_at: iso(row.state === "retrying" ? row.nextAttemptAt : undefined),
    delivered_at: iso(row.deliveredAt),
    dead_at: iso(row.deadAt),
    last_error: row.lastError,
    error_class: row.errorClass,
    last_status_code: row.statusCode,
    replay_id: row.replayId,
    dlq_id: row.state === "dead" && !row.purged ? row.id : undefined,
  };
}

/** A DLQ entry as the API shows it: ISO timestamps, never a body. */
export function dlqEntryView(e: DlqEntry): z.infer<typeof DlqEntryView> {
  return {
    id: e.id,
    direction: e.direction,
    target: e.target,
    hook_id: e.hook_id,
    event_id: e.event_id,
    source: e.source,
    event_type: e.event_type,
    tenant: e.tenant,
    sink: e.sink,
    endpoint: e.endpoint,
    error_class: e.error_class,
    reason: e.reason,
    status_code: e.status_code,
    attempts: e.attempts,
    first_attempt_at: iso(e.first_attempt_at),
    last_attempt_at: iso(e.last_attempt_at),
    dead_at: isoAt(e.dead_at),
    replay_id: e.replay_id,
  };
}

// A dead-lettered delivery as an operator sees it, and the filters and positions a DLQ listing or a
// replay walks by. Pure: the store reads the indexes, this says what an entry is and what matches.
import type { DeliveryRow } from "./delivery.ts";
import type { ErrorClass } from "./error-class.ts";
import { eventIdOf } from "./event.ts";
import { sinkDeliveryId } from "./hook.ts";
import { type DeliveryId, type HookId, isId } from "./ids.ts";

/** Inbound: a hook to a sink. Outbound: an event to an endpoint. */
export type DlqDirection = "inbound" | "outbound";

/**
 * One shape for both directions: `direction` and `target` (the sink name or endpoint id) are always
 * set; `source` and `hook_id` only inbound, `event_type` and `event_id` only outbound. `sink` and
 * `endpoint` repeat the target under its kind's name, as the filters call it.
 */
export interface DlqEntry {
  /** The delivery id (`dl_…`). */
  readonly id: DeliveryId;
  readonly direction: DlqDirection;
  readonly target: string;
  /** The hook (inbound) or event (outbound) delivered. */
  readonly hook_id: string | undefined;
  readonly event_id: string | undefined;
  readonly source: string | undefined;
  readonly event_type: string | undefined;
  readonly tenant: string | undefined;
  readonly sink: string | undefined;
  readonly endpoint: string | undefined;
  readonly error_class: ErrorClass;
  readonly reason: string;
  readonly status_code: number | undefined;
  readonly attempts: number;
  readonly first_attempt_at: number;
  readonly last_attempt_at: number;
  readonly dead_at: number;
  readonly replay_id?: string;
}

/** What an operator narrows the DLQ by. Every field is optional; `tenant` comes from the token. */
export interface DlqFilter {
  readonly source?: string;
  readonly sink?: string;
  readonly endpoint?: string;
  readonly error_class?: ErrorClass;
  readonly tenant?: string;
  /** Inclusive lower bound on `dead_at` (ms). */
  readonly since?: number;
  /** Exclusive upper bound on `dead_at` (ms). */
  readonly until?: number;
}

/**
 * A position in an index: the last member seen. Every index holds the same (dead_at, id) pairs and
 * Redis orders equal scores by member, so one position is valid in any index and any bucket.
 */
export interface IndexPosition {
  readonly score: number;
  readonly id: string;
}

export interface DlqPage {
  /** Newest first. */
  readonly entries: readonly DlqEntry[];
  /** Where the next page starts; undefined when nothing older is left. */
  readonly next: IndexPosition | undefined;
}

export interface DlqListQuery extends DlqFilter {
  readonly limit: number;
  readonly after?: IndexPosition;
}

/** A dead row as a DLQ entry; undefined for a row that is not (or no longer) listed. */
export function entryOf(row: DeliveryRow | undefined): DlqEntry | undefined {
  if (!row || row.state !== "dead" || row.purged) return undefined;
  const inbound = row.target.kind === "sink";
  // An outbound row keeps its event type where an inbound one keeps its source (the indexes share it).
  return {
    id: row.id,
    direction: inbound ? "inbound" : "outbound",
    target: row.target.kind === "sink" ? row.target.name : row.target.id,
    hook_id: inbound ? row.parentId : undefined,
    event_id: inbound ? undefined : eventIdOf(row.parentId),
    source: inbound ? row.source : undefined,
    event_type: inbound ? undefined : row.source,
    tenant: row.tenant,
    sink: row.target.kind === "sink" ? row.target.name : undefined,
    endpoint: row.target.kind === "endpoint" ? row.target.id : undefined,
    error_class: row.errorClass ?? "transient",
    reason: row.lastError ?? "",
    status_code: row.statusCode,
    attempts: row.attempts,
    first_attempt_at: row.firstAttemptAt ?? row.deadAt ?? 0,
    last_attempt_at: row.lastAttemptAt ?? row.deadAt ?? 0,
    dead_at: row.deadAt ?? 0,
    ...(row.replayId !== undefined ? { replay_id: row.replayId } : {}),
  };
}

/**
 * The delivery a DLQ id names: a `dl_…` id, or the `<hook id>-<sink>` form earlier versions used.
 * Undefined for anything else.
 */
export function parseDlqId(id: string): DeliveryId | undefined {
  if (isId("dl", id)) return id;
  const hookId = id.slice(0, 29);
  if (id[29] === "-" && isId("hk", hookId) && /^[A-Za-z0-9_-]{1,64}$/.test(id.slice(30)))
    return sinkDeliveryId(hookId as HookId, id.slice(30));
  return undefined;
}

/** Does `e` pass every field of `f`? (The index a scan walks already implies one of them.) */
export function matchesFilter(e: DlqEntry, f: DlqFilter): boolean {
  return (
    (f.source === undefined || e.source === f.source) &&
    (f.sink === undefined || e.sink === f.sink) &&
    (f.endpoint === undefined || e.endpoint === f.endpoint) &&
    (f.error_class === undefined || e.error_class === f.error_class) &&
    (f.tenant === undefined || e.tenant === f.tenant) &&
    (f.since === undefined || e.dead_at >= f.since) &&
    (f.until === undefined || e.dead_at < f.until)
  );
}

/** Score bounds of a scan, as Redis wants them: `hi` may be exclusive. */
export interface ScoreRange {
  readonly lo: number;
  readonly hi: number;
  readonly hiExclusive: boolean;
}

export function rangeOf(f: DlqFilter, notAfter = Infinity): ScoreRange {
  const until = f.until ?? Infinity;
  return until <= notAfter
    ? { lo: f.since ?? -Infinity, hi: until, hiExclusive: true }
    : { lo: f.since ?? -Infinity, hi: notAfter, hiExclusive: false };
}

// A delivery: one (hook or event, sink or endpoint) pair with a durable row of its own. Its state
// machine is the product's central promise: every delivery ends `delivered` or `dead`.
import type { ErrorClass } from "./error-class.ts";
import type { DeliveryId, EndpointId, ReplayId } from "./ids.ts";

/**
 * - `pending`: written, not yet attempted (or handed back before its attempt ran);
 * - `sending`: a worker holds its lease and is attempting it now;
 * - `retrying`: failed, due again at `nextAttemptAt`;
 * - `delivered`, `dead`: final (a dead delivery is listed in the DLQ until replayed or trimmed).
 */
export type DeliveryState = "pending" | "sending" | "retrying" | "delivered" | "dead";

/** Where a delivery goes: a configured sink (inbound) or a registered endpoint (outbound). */
export type Target =
  { readonly kind: "sink"; readonly name: string } | { readonly kind: "endpoint"; readonly id: EndpointId };

/** The stored form of a target: `s:<sink>` or `e:<endpoint id>`. */
export function targetKey(t: Target): string {
  switch (t.kind) {
    case "sink":
      return `s:${t.name}`;
    case "endpoint":
      return `e:${t.id}`;
  }
}

export function parseTarget(value: string): Target | undefined {
  if (value.startsWith("s:")) return { kind: "sink", name: value.slice(2) };
  if (value.startsWith("e:ep_")) return { kind: "endpoint", id: value.slice(2) as EndpointId };
  return undefined;
}

/** A delivery row as the ledger holds it. Times are milliseconds since the epoch. */
export interface DeliveryRow {
  readonly id: DeliveryId;
  /** The hook (`hk_`) or event (`ev_`, or the publisher's own id) delivered. */
  readonly parentId: string;
  readonly target: Target;
  readonly state: DeliveryState;
  readonly attempts: number;
  readonly createdAt: number;
  readonly firstAttemptAt: number | undefined;
  readonly lastAttemptAt: number | undefined;
  readonly nextAttemptAt: number | undefined;
  readonly deliveredAt: number | undefined;
  readonly deadAt: number | undefined;
  readonly lastError: string | undefined;
  readonly errorClass: ErrorClass | undefined;
  readonly statusCode: number | undefined;
  /** Which worker holds the lease while `sending`, and until when. */
  readonly leaseOwner: string | undefined;
  readonly leaseUntil: number | undefined;
  /** Fencing token: bumped by every claim; a write carrying an older one is refused. */
  readonly fence: number;
  readonly replayId: ReplayId | undefined;
  /** Inbound source, or the event type of an outbound delivery: what the DLQ filters on. */
  readonly source: string;
  readonly tenant: string | undefined;
  /** Publish could not enqueue it; reconcile will. */
  readonly enqueueFailed: boolean;
  /** An operator took it off the DLQ (it stays dead). */
  readonly purged: boolean;
}

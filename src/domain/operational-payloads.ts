// The payloads of the operational facts about endpoints, breakers, DLQ sizes and replays: what a
// receiver of `switchyard.endpoint.*`, `.breaker.*`, `.dlq.threshold` and `.replay.finished` finds in
// `data`. Their JSON Schemas (operational-schemas.ts) describe exactly these shapes; a test checks each
// schema's example, and the examples are typed by these interfaces, so the two cannot drift apart.
import type { EndpointSnapshot } from "./endpoint-snapshot.ts";
import type { ErrorClass } from "./error-class.ts";

/** Every `switchyard.endpoint.*` fact: the endpoint as the API shows it after the change (before, for deleted). */
export interface EndpointFactData {
  readonly endpoint_id: string;
  /** The endpoint's tenant; absent for an operator's (tenantless) endpoint. */
  readonly tenant?: string;
  readonly version: number;
  readonly endpoint: EndpointSnapshot;
}

/** `switchyard.endpoint.updated`: which fields of the API's view changed (a secret's rotation is `secret`). */
export interface EndpointUpdatedData extends EndpointFactData {
  readonly changed: readonly string[];
}

/** Why an endpoint was disabled: an operator, a 410 Gone answer, or failing longer than allowed. */
export type DisableCause = "operator" | "gone" | "failing";

/** `switchyard.endpoint.disabled`. */
export interface EndpointDisabledData extends EndpointFactData {
  readonly cause: DisableCause;
  readonly reason: string;
}

/** The target of a circuit breaker: a sink (inbound) or an endpoint (outbound). */
export type BreakerTarget =
  { readonly kind: "sink"; readonly name: string } | { readonly kind: "endpoint"; readonly id: string };

/** `switchyard.breaker.opened` / `.closed`. */
export interface BreakerFactData {
  readonly target: BreakerTarget;
  /** The endpoint's tenant; absent for a sink or an operator's endpoint. */
  readonly tenant?: string;
  readonly state: "open" | "closed";
  /** Opened: how long it stays open before a probe. Closed: the open period it closed from. */
  readonly open_period_ms: number;
  readonly at: string;
}

/** `switchyard.dlq.threshold`: a DLQ index holds at least `threshold` dead deliveries. */
export interface DlqThresholdData {
  /** `all`, `sink:<name>`, `endpoint:<id>` or `tenant:<name>`. */
  readonly index: string;
  readonly size: number;
  readonly threshold: number;
  /** The index's tenant (a tenant's index, or its endpoint's); absent otherwise. */
  readonly tenant?: string;
  readonly at: string;
}

/** A replay's filter as the API shows it (instants as ISO 8601). */
export interface ReplayFilterView {
  readonly source?: string;
  readonly sink?: string;
  readonly endpoint?: string;
  readonly error_class?: ErrorClass;
  readonly since?: string;
  readonly until?: string;
  readonly ids?: readonly string[];
}

/** `switchyard.replay.finished`. */
export interface ReplayFinishedData {
  readonly replay_id: string;
  /** The tenant whose token created it; absent for an operator's replay. */
  readonly tenant?: string;
  readonly state: "done" | "cancelled";
  readonly filter: ReplayFilterView;
  readonly matched: number;
  readonly moved: number;
  readonly failed: number;
  readonly total_estimate: number;
  readonly created_at: string;
  readonly finished_at: string;
}

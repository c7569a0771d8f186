// What one kind of destination plugs into the attempt runner: a sink (inbound) or an endpoint
// (outbound). The runner owns the phases, the ledger and the retry policy; a target only says
// whether an attempt may run now, what it sends, and how it sends it.
import type { RetryConfig } from "../config/schema.ts";
import type { Target } from "../domain/delivery.ts";
import type { DeliveryResult, ErrorClass } from "../domain/error-class.ts";
import type { DeliveryId, ReplayId } from "../domain/ids.ts";
import type { DeliveryTicket } from "./delivery-ticket.ts";
import type { Cancellation } from "./safe-deliver.ts";

/** May an attempt start now? A pass holds whatever the target reserved (a probe, a slot). */
export type Admission =
  | { readonly pass: true; readonly probe: boolean }
  | { readonly pass: false; readonly until: number; readonly why: string };

/** What the runner knows of a claimed delivery when it asks the target to prepare it. */
export interface ClaimedDelivery {
  readonly id: DeliveryId;
  readonly parentId: string;
  readonly attempt: number;
  readonly replayId: ReplayId | undefined;
  /** The parent fields the target asked for, in order. */
  readonly parent: readonly (Buffer | undefined)[];
}

/** An attempt ready to send: what the runner needs of it besides what the target keeps inside. */
export interface PreparedAttempt {
  readonly target: Target;
  /** What the DLQ files it under: the inbound source, or the event type. */
  readonly source: string;
  readonly tenant: string | undefined;
  /** When the hook or event was received: delivery latency counts from here. */
  readonly receivedAt: number;
  readonly policy: RetryConfig;
  /** Coordinates every log line of the attempt carries (and its span, as `switchyard.*` attributes). */
  readonly log: Readonly<Record<string, unknown>>;
  /** The hook's or event's stored traceparent: the parent of the attempt's span. */
  readonly traceParent?: string | undefined;
}

/** The metrics an attempt moves; inbound and outbound keep their own series. */
export interface AttemptMetrics {
  attempt(p: PreparedAttempt | undefined, result: string): void;
  delivered(p: PreparedAttempt, latencyS: number): void;
  deadLettered(p: PreparedAttempt, errorClass: ErrorClass, config: boolean): void;
  fenced(): void;
}

export interface DeliveryTarget<P extends PreparedAttempt> {
  /** The parent record a job's row delivers (hook or event key). */
  parentKey(job: DeliveryTicket): string;
  readonly parentFields: readonly string[];
  /** Before the claim (so a parked job reads nothing): breaker, rate and concurrency limits. */
  admit(job: DeliveryTicket): Promise<Admission>;
  /** The admission was not used (the row needed no attempt, or the attempt was handed back). */
  unadmit(job: DeliveryTicket, admission: Admission): Promise<void>;
  /** Build the attempt from the claimed row; a string says why it can never be delivered. */
  prepare(job: DeliveryTicket, claimed: ClaimedDelivery): Promise<P | string>;
  /**
   * Send one attempt, bounded by the attempt timeout and cancellable by shutdown and by `lease` (see
   * safeAttempt), and account for it (breaker, slots). Never throws: every failure is a result.
   * `traceparent`: the attempt span's, for the destination (undefined with tracing off).
   */
  send(
    p: P,
    claimed: ClaimedDelivery,
    admission: Admission,
    traceparent: string | undefined,
    lease: Cancellation,
  ): Promise<DeliveryResult>;
  /** After the ledger recorded an outcome: side effects such as disabling an endpoint. */
  settled?(p: P, result: DeliveryResult, final: boolean): Promise<void>;
}

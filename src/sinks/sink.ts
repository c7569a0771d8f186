// The contract every sink implements. A sink type is a plugin (plugin.ts) whose factory builds these;
// dispatch knows nothing else about it.
import type { DeliveryResult } from "../domain/error-class.ts";
import type { Delivery } from "../domain/hook.ts";
import type { Logger } from "../observability/logger.ts";
import type { AttemptAbort } from "./attempt-abort.ts";

/** Where a sink publishes, for the AsyncAPI document. Never holds credentials or URL userinfo. */
export interface SinkDescription {
  /** `message`: the queue message v1 is published; `body`: the raw hook body is forwarded. */
  readonly payload: "message" | "body";
  /** The sink type's `traits.protocol`. */
  readonly protocol: string;
  /** Broker or URL without userinfo. */
  readonly host: string;
  /** Channel address: exchange + routing key template, topic, or path. */
  readonly address: string;
  readonly bindings?: Readonly<Record<string, unknown>>;
}

export interface Sink {
  readonly name: string;
  readonly type: string;
  /** The largest body sent inline; above it the sink sends the claim reference. `undefined`: always inline. */
  readonly inlineMaxBytes: number | undefined;
  /**
   * Attempt one delivery. May reject or hang: dispatch turns a rejection, a timeout (the signal aborts)
   * or an unexpected value into a transient failure. `abort` aborts with `signal`, as a plain emitter
   * that costs far less to listen on once per delivery (attempt-abort.ts); dispatch always passes it.
   */
  deliver(delivery: Delivery, signal: AbortSignal, abort?: AttemptAbort): Promise<DeliveryResult>;
  describe(subject: { source: string; tenant: string | undefined }): SinkDescription | undefined;
  close(): Promise<void>;
}

/** What a sink factory may use besides its own config. */
export interface SinkDeps {
  readonly logger: Logger;
  /** `dispatch.claim_check_bytes`: the inline limit of a queue sink that sets none of its own. */
  readonly defaultClaimCheckBytes: number;
  /**
   * At most this many deliveries are in flight at once (the worker pool's concurrency). A batching sink
   * flushes at this size too: no further delivery can arrive to fill a larger batch.
   */
  readonly concurrency?: number;
}

/** The batch size a batching sink can actually reach. */
export function effectiveBatchMax(max: number, deps: SinkDeps): number {
  return Math.max(1, Math.min(max, deps.concurrency ?? max));
}

export type SinkFactory<C> = (name: string, config: C, deps: SinkDeps) => Sink;

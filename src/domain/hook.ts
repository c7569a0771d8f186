// A received hook as the store holds it and as every sink sees it.
import { targetKey } from "./delivery.ts";
import { type DeliveryId, type HookId, type ReplayId, bucketOf, deliveryIdFor } from "./ids.ts";

export interface HookRecord {
  readonly id: HookId;
  readonly source: string;
  readonly tenant: string | undefined;
  /** Milliseconds since the epoch when the gateway accepted it. */
  readonly receivedAt: number;
  readonly contentType: string | undefined;
  /** Request headers, lower-cased, minus hop-by-hop ones. */
  readonly headers: Readonly<Record<string, string>>;
  /** The exact bytes the provider sent (signatures are over bytes). */
  readonly body: Buffer;
  /** Hex sha256 of `body`. */
  readonly sha256: string;
  readonly dedupKey: string;
  /** What consumers dedup on: `tenant:source:dedup_key`. */
  readonly idempotencyKey: string;
  /** Names of the sinks this hook goes to. */
  readonly sinks: readonly string[];
  /** W3C traceparent of the request span that accepted it (tracing on only): its attempts' parent. */
  readonly traceparent?: string | undefined;
}

/** A reference to a body stored once, sent by queue sinks instead of a large body. */
export interface ClaimRef {
  readonly id: string;
  readonly url: string;
  readonly sha256: string;
  readonly size: number;
}

/** One attempt at delivering one hook to one sink. */
export interface Delivery {
  readonly hook: HookRecord;
  readonly sink: string;
  /** 1 for the first attempt. */
  readonly attempt: number;
  readonly replayId: ReplayId | undefined;
  /** Set when the body is above the claim-check threshold of one of the source's sinks. */
  readonly claim: ClaimRef | undefined;
  /** W3C traceparent of this attempt's span (tracing on only): sent on as the `traceparent` header. */
  readonly traceparent?: string | undefined;
}

/**
 * The hook's dedup identity, `tenant:source:dedup_key`: what consumers dedup on, and what decides the
 * storage bucket of the hook (so a duplicate finds its first copy's dedup key in the same slot).
 */
export function idempotencyKey(tenant: string | undefined, source: string, dedupKey: string): string {
  return `${tenant ?? "-"}:${source}:${dedupKey}`;
}

/** The delivery row of `hook` to `sink`. */
export function sinkDeliveryId(hookId: HookId, sink: string): DeliveryId {
  return deliveryIdFor(hookId, targetKey({ kind: "sink", name: sink }), bucketOf(hookId));
}

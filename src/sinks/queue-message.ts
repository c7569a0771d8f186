// Queue message v1: the one JSON document RabbitMQ and Kafka consumers receive per hook.
// Documented in the README and in /asyncapi.json; change it only by adding fields.
import type { Delivery } from "../domain/hook.ts";
import { headerSafe } from "./header-value.ts";

export interface QueueMessageV1 {
  readonly id: string;
  readonly source: string;
  readonly tenant: string | null;
  /** ISO 8601, millisecond precision. */
  readonly received_at: string;
  readonly content_type: string | null;
  readonly headers: Readonly<Record<string, string>>;
  /** Hex sha256 of the body bytes, whether inline or behind the claim. */
  readonly sha256: string;
  readonly idempotency_key: string;
  readonly replay_id: string | null;
  readonly body_base64?: string;
  /** URL of `GET /v1/claims/:id` when the body is above the sink's inline limit. */
  readonly claim?: string;
}

/** The message for one delivery; the body goes inline unless the sink's limit sends the claim instead. */
export function buildQueueMessage(delivery: Delivery, inlineMaxBytes: number | undefined): QueueMessageV1 {
  const { hook } = delivery;
  const base = {
    id: hook.id,
    source: hook.source,
    tenant: hook.tenant ?? null,
    received_at: new Date(hook.receivedAt).toISOString(),
    content_type: hook.contentType ?? null,
    headers: hook.headers,
    sha256: hook.sha256,
    idempotency_key: hook.idempotencyKey,
    replay_id: delivery.replayId ?? null,
  };
  const useClaim =
    delivery.claim !== undefined && inlineMaxBytes !== undefined && hook.body.length > inlineMaxBytes;
  return useClaim && delivery.claim
    ? { ...base, claim: delivery.claim.url }
    : { ...base, body_base64: hook.body.toString("base64") };
}

/**
 * Headers every queue sink (and the http sink) attaches, so consumers can route and dedup unparsed.
 * Values that come from data are percent-encoded where needed (header-value.ts).
 */
export function queueMessageHeaders(delivery: Delivery): Record<string, string> {
  const h: Record<string, string> = {
    "x-switchyard-id": delivery.hook.id,
    "x-switchyard-source": headerSafe(delivery.hook.source),
    "x-switchyard-idempotency-key": headerSafe(delivery.hook.idempotencyKey),
    "x-switchyard-attempt": String(delivery.attempt),
  };
  if (delivery.hook.tenant !== undefined) h["x-switchyard-tenant"] = headerSafe(delivery.hook.tenant);
  if (delivery.replayId !== undefined) h["x-switchyard-replay-id"] = delivery.replayId;
  // The attempt's span (tracing on): the consumer's work joins the hook's trace.
  if (delivery.traceparent !== undefined) h.traceparent = delivery.traceparent;
  return h;
}

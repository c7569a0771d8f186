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

type MessageFields = Omit<QueueMessageV1, "body_base64" | "claim">;

function fieldsOf(delivery: Delivery): MessageFields {
  const { hook } = delivery;
  return {
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
}

/** The claim URL the message carries instead of the body, if the sink's limit says so. */
function claimUrlOf(delivery: Delivery, inlineMaxBytes: number | undefined): string | undefined {
  const useClaim =
    delivery.claim !== undefined &&
    inlineMaxBytes !== undefined &&
    delivery.hook.body.length > inlineMaxBytes;
  return useClaim ? delivery.claim?.url : undefined;
}

/** The message for one delivery; the body goes inline unless the sink's limit sends the claim instead. */
export function buildQueueMessage(delivery: Delivery, inlineMaxBytes: number | undefined): QueueMessageV1 {
  const base = fieldsOf(delivery);
  const claim = claimUrlOf(delivery, inlineMaxBytes);
  return claim !== undefined
    ? { ...base, claim }
    : { ...base, body_base64: delivery.hook.body.toString("base64") };
}

const BODY_FIELD = ',"body_base64":"';

/**
 * The bytes of `JSON.stringify(buildQueueMessage(...))`, exactly, with the inline body's base64 written
 * straight into the buffer: JSON.stringify would scan the whole base64 text for characters to escape
 * (it has none) and copy it twice more, which is most of what building a message costs per delivery.
 */
export function encodeQueueMessage(delivery: Delivery, inlineMaxBytes: number | undefined): Buffer {
  const base = fieldsOf(delivery);
  const claim = claimUrlOf(delivery, inlineMaxBytes);
  if (claim !== undefined) return Buffer.from(JSON.stringify({ ...base, claim }));
  const head = JSON.stringify(base);
  const body = delivery.hook.body.toString("base64");
  // `head` ends with its closing brace (one byte), which the body field replaces.
  const headBytes = Buffer.byteLength(head) - 1;
  const out = Buffer.allocUnsafe(headBytes + BODY_FIELD.length + body.length + 2);
  let at = out.write(head, 0, headBytes, "utf8");
  at += out.write(BODY_FIELD, at, "latin1");
  at += out.write(body, at, "latin1");
  out.write('"}', at, "latin1");
  return out;
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

// The queue message v1 (src/sinks/queue-message.ts) as an AsyncAPI message with a JSON Schema payload:
// what every RabbitMQ and Kafka consumer of Switchyard receives. Fields are only ever added, so the schema
// allows unknown ones.

/** Component name of the message in `components.messages` and of its payload in `components.schemas`. */
export const HOOK_MESSAGE = "hookMessageV1";

const nullableString = (description: string): Record<string, unknown> => ({
  type: ["string", "null"],
  description,
});

/** JSON Schema of `QueueMessageV1`. */
export const hookMessageSchema = {
  type: "object",
  description:
    "One hook received by Switchyard. The body is inline (`body_base64`) or behind a claim URL (`claim`).",
  required: [
    "id",
    "source",
    "tenant",
    "received_at",
    "content_type",
    "headers",
    "sha256",
    "idempotency_key",
    "replay_id",
  ],
  properties: {
    id: {
      type: "string",
      pattern: "^hk_[0-9a-z]{26}$",
      description: "Hook id, stable across retries and replays.",
    },
    source: { type: "string", description: "Name of the source the hook arrived on." },
    tenant: nullableString("Tenant of the hook, from the URL or the source's config."),
    received_at: { type: "string", format: "date-time", description: "When Switchyard accepted the hook." },
    content_type: nullableString("Content-Type the provider sent."),
    headers: {
      type: "object",
      additionalProperties: { type: "string" },
      description: "Request headers, names lower-cased, hop-by-hop headers removed.",
    },
    sha256: { type: "string", pattern: "^[0-9a-f]{64}$", description: "Hex sha256 of the body bytes." },
    idempotency_key: {
      type: "string",
      description: "Dedup key for consumers: `tenant:source:dedup_key` (delivery is at-least-once).",
    },
    replay_id: nullableString("Id of the DLQ replay that re-sent this hook, if any."),
    body_base64: { type: "string", contentEncoding: "base64", description: "The exact body bytes, base64." },
    claim: {
      type: "string",
      format: "uri",
      description:
        "Signed, expiring URL of `GET /v1/claims/{id}?exp=…&sig=…` (no token needed until exp) returning the body bytes, sent instead of `body_base64` " +
        "for bodies above the sink's claim_check_bytes.",
    },
  },
  oneOf: [{ required: ["body_base64"] }, { required: ["claim"] }],
} as const;

/** Broker headers (AMQP message headers, Kafka record headers) sent with every message. */
const hookMessageHeaders = {
  type: "object",
  required: [
    "x-switchyard-id",
    "x-switchyard-source",
    "x-switchyard-idempotency-key",
    "x-switchyard-attempt",
  ],
  properties: {
    "x-switchyard-id": { type: "string", description: "Hook id." },
    "x-switchyard-source": { type: "string" },
    "x-switchyard-tenant": { type: "string", description: "Absent when the hook has no tenant." },
    "x-switchyard-idempotency-key": {
      type: "string",
      description:
        "The message's idempotency_key, percent-encoded: UTF-8 bytes outside visible ASCII, and %, as %XX (decodeURIComponent gives it back).",
    },
    "x-switchyard-attempt": { type: "string", description: "Delivery attempt, 1 for the first." },
    "x-switchyard-replay-id": { type: "string", description: "Present on replayed deliveries." },
    traceparent: {
      type: "string",
      description: "W3C trace context of the delivery attempt's span; present when tracing is on.",
    },
  },
} as const;

/** The AsyncAPI message object. */
export const hookMessage = {
  name: "HookMessageV1",
  title: "Switchyard hook message v1",
  summary: "A received webhook, published once per hook and sink (at-least-once, unordered).",
  contentType: "application/json",
  headers: hookMessageHeaders,
  payload: { $ref: `#/components/schemas/${HOOK_MESSAGE}` },
} as const;

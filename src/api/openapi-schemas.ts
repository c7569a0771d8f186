// The response shapes /openapi.json refers to, kept beside the path list in openapi-document.ts. Enums come
// from the code that defines them, so the document cannot drift from what the API answers.
import { ERROR_CLASSES } from "../domain/error-class.ts";
import { PAYLOAD_FORMATS } from "../domain/outbound-body.ts";
import { REPLAY_STATES } from "../domain/replay.ts";
import {
  MAX_DESCRIPTION_LENGTH,
  MAX_EVENT_TYPES,
  MAX_HEADERS,
  MAX_RATE_LIMIT_PER_S,
  MAX_URL_LENGTH,
} from "./endpoint-body.ts";
import { DELIVERY_VIEW_STATES } from "./views.ts";

/** A `$ref` to one of the schemas below. */
export const ref = (name: string): Record<string, unknown> => ({ $ref: `#/components/schemas/${name}` });

const string = { type: "string" } as const;
const integer = { type: "integer" } as const;
const instant = { type: "string", format: "date-time" } as const;
const payloadFormat = {
  enum: PAYLOAD_FORMATS,
  description:
    'The delivery body. standard (the default): {"type":"order.paid","timestamp":"<ISO 8601, the event\'s creation time>","data":<payload>}. raw: the payload alone.',
} as const;

/** The writable endpoint fields; `nullable` lets a patch clear the optional ones. */
function endpointFields(extra: Record<string, unknown>, nullable = false): Record<string, unknown> {
  const orNull = (type: string) => (nullable ? [type, "null"] : type);
  return {
    url: { ...string, format: "uri", maxLength: MAX_URL_LENGTH, description: "http or https, not internal." },
    event_types: {
      type: "array",
      minItems: 1,
      maxItems: MAX_EVENT_TYPES,
      items: { ...string, pattern: "^(\\*|[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*(\\.\\*)?)$", maxLength: 128 },
    },
    headers: {
      type: "object",
      maxProperties: MAX_HEADERS,
      additionalProperties: string,
      description:
        "Not hop-by-hop, host, content-*, webhook-* or x-switchyard-* headers. Replaces the whole set.",
    },
    rate_limit_per_s: { type: orNull("integer"), minimum: 1, maximum: MAX_RATE_LIMIT_PER_S },
    payload_format: payloadFormat,
    description: { type: orNull("string"), maxLength: MAX_DESCRIPTION_LENGTH },
    disabled: { type: "boolean" },
    ...extra,
  };
}

export const openApiSchemas = {
  Error: {
    type: "object",
    required: ["error"],
    properties: {
      error: { type: "object", required: ["code"], properties: { code: string, message: string } },
    },
  },
  IngestAccepted: { type: "object", properties: { status: { const: "accepted" }, id: string } },
  IngestDuplicate: {
    type: "object",
    properties: { status: { const: "duplicate" }, id: { ...string, description: "Id of the first copy." } },
  },
  SinkState: {
    type: "object",
    description: "One delivery (a row of the delivery ledger).",
    properties: {
      delivery_id: string,
      state: { enum: DELIVERY_VIEW_STATES },
      attempts: integer,
      first_attempt_at: instant,
      last_attempt_at: instant,
      next_attempt_at: instant,
      delivered_at: instant,
      dead_at: instant,
      last_error: string,
      error_class: { enum: ERROR_CLASSES },
      last_status_code: integer,
      replay_id: string,
      dlq_id: string,
    },
  },
  Hook: {
    type: "object",
    properties: {
      id: string,
      source: string,
      tenant: string,
      received_at: instant,
      size: integer,
      content_type: string,
      sha256: string,
      idempotency_key: string,
      headers: { type: "object", additionalProperties: string },
      sinks: { type: "object", additionalProperties: ref("SinkState") },
      body_base64: { ...string, description: "Only with ?include=body." },
    },
  },
  DlqEntry: {
    type: "object",
    description:
      "A dead delivery, one shape for both directions: inbound (a hook to a sink) and outbound (an event to an endpoint).",
    required: ["id", "direction", "target", "error_class", "reason", "attempts", "dead_at"],
    properties: {
      id: { ...string, description: "The delivery id (dl_…)." },
      direction: { enum: ["inbound", "outbound"] },
      target: { ...string, description: "The sink name (inbound) or endpoint id (outbound)." },
      hook_id: { ...string, description: "Inbound only: the hook delivered." },
      event_id: { ...string, description: "Outbound only: the event delivered." },
      source: { ...string, description: "Inbound only: the source the hook came in on." },
      event_type: { ...string, description: "Outbound only: the event's type (order.paid)." },
      tenant: string,
      sink: { ...string, description: "Inbound only: the target, as the sink filter names it." },
      endpoint: { ...string, description: "Outbound only: the target, as the endpoint filter names it." },
      error_class: { enum: ERROR_CLASSES },
      reason: string,
      status_code: integer,
      attempts: integer,
      first_attempt_at: instant,
      last_attempt_at: instant,
      dead_at: instant,
      replay_id: string,
    },
  },
  Endpoint: {
    type: "object",
    properties: {
      id: { ...string, description: "ep_…" },
      url: string,
      event_types: {
        type: "array",
        items: { ...string, description: "An event type (order.paid), a prefix wildcard (order.*) or *." },
      },
      tenant: {
        ...string,
        description: "Receives only this tenant's events; unset: only events without a tenant.",
      },
      headers: {
        type: "object",
        additionalProperties: string,
        description: "Extra request headers; credential-like values are shown as [redacted].",
      },
      rate_limit_per_s: integer,
      payload_format: payloadFormat,
      disabled: { type: "boolean" },
      disabled_reason: string,
      disabled_at: instant,
      description: string,
      version: {
        ...integer,
        description:
          "Bumped by every change of url, event_types, headers, payload_format, secret or disabled.",
      },
      created_at: instant,
      updated_at: instant,
      failing_since: instant,
    },
  },
  EndpointWithSecret: {
    allOf: [
      ref("Endpoint"),
      {
        type: "object",
        properties: { secret: { ...string, description: "whsec_…; shown only in this answer." } },
      },
    ],
  },
  EndpointInput: {
    type: "object",
    required: ["url", "event_types"],
    additionalProperties: false,
    properties: endpointFields({
      secret: { ...string, description: "whsec_ + base64 of 24–64 bytes; generated if absent." },
      tenant: {
        ...string,
        pattern: "^[A-Za-z0-9_-]{1,64}$",
        description: "A tenant-bound token's own tenant is used (and no other is accepted).",
      },
    }),
  },
  EndpointPatch: {
    type: "object",
    additionalProperties: false,
    properties: endpointFields({}, true),
  },
  Replay: {
    type: "object",
    properties: {
      id: string,
      state: { enum: REPLAY_STATES },
      tenant: string,
      filter: { type: "object" },
      rate_per_s: integer,
      matched: integer,
      moved: integer,
      failed: integer,
      total_estimate: integer,
      created_at: instant,
      updated_at: instant,
      finished_at: instant,
    },
  },
} as const;

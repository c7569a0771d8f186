// The operational events (`switchyard.*`) in /asyncapi.json: one channel, the signed webhooks Switchyard
// sends to every endpoint subscribed to them, with one message per type. Payload schemas and examples
// come from the one place that documents them (src/domain/operational-schemas.ts).
import { OPERATIONAL_TYPES, type OperationalType } from "../domain/operational-events.ts";
import { OPERATIONAL_SCHEMAS } from "../domain/operational-schemas.ts";

export const OPERATIONAL_CHANNEL = "operational-events";

/** The component id of a type's message and payload schema (`switchyard.breaker.opened` → `switchyard_breaker_opened`). */
export const operationalComponentId = (type: OperationalType): string => type.replace(/\./g, "_");

/** Standard Webhooks headers on every delivery. */
const webhookHeaders = {
  type: "object",
  required: ["webhook-id", "webhook-timestamp", "webhook-signature"],
  properties: {
    "webhook-id": {
      type: "string",
      description:
        "The event id: one per fact (`op:<type without switchyard.>:<subject>[:<n>]`), the same on every retry.",
    },
    "webhook-timestamp": {
      type: "string",
      description: "Seconds since the epoch when this attempt was signed.",
    },
    "webhook-signature": {
      type: "string",
      description:
        "`v1,<base64 HMAC-SHA256>` with the endpoint's secret (several, space-separated, while a rotated one overlaps).",
    },
  },
} as const;

/** The Standard Webhooks body of one operational type: `{type, timestamp, data}`. */
function envelope(type: OperationalType): Record<string, unknown> {
  return {
    type: "object",
    required: ["type", "timestamp", "data"],
    properties: {
      type: { type: "string", const: type },
      timestamp: { type: "string", format: "date-time", description: "When the fact was decided." },
      data: OPERATIONAL_SCHEMAS[type].schema,
    },
    additionalProperties: false,
  };
}

/** The channel, operation, messages and schemas of the operational events, to merge into the document. */
export function operationalSection(): {
  channels: Record<string, unknown>;
  operations: Record<string, unknown>;
  messages: Record<string, unknown>;
  schemas: Record<string, unknown>;
} {
  const messages: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};
  const channelMessages: Record<string, unknown> = {};
  for (const type of OPERATIONAL_TYPES) {
    const id = operationalComponentId(type);
    const doc = OPERATIONAL_SCHEMAS[type];
    schemas[id] = envelope(type);
    messages[id] = {
      name: type,
      title: type,
      summary: doc.description,
      contentType: "application/json",
      headers: webhookHeaders,
      payload: { $ref: `#/components/schemas/${id}` },
      examples: [{ name: id, payload: { type, timestamp: "2026-12-06T11:02:13.004Z", data: doc.example } }],
    };
    channelMessages[id] = { $ref: `#/components/messages/${id}` };
  }
  return {
    channels: {
      [OPERATIONAL_CHANNEL]: {
        address: null,
        title: "Operational events",
        description:
          "Facts Switchyard publishes about itself (endpoints changed or disabled, deliveries failing or exhausted, " +
          "breakers, DLQ sizes, replays), sent as signed webhooks (Standard Webhooks) to each endpoint subscribed to " +
          "them (`switchyard.*`, a prefix such as `switchyard.delivery.*`, or an exact type; never `*`). The address is " +
          "each subscribed endpoint's URL. A tenant's endpoint receives its tenant's facts only.",
        messages: channelMessages,
      },
    },
    operations: {
      "send-operational-events": {
        action: "send",
        title: "Send operational events",
        summary:
          "Switchyard POSTs each fact once per subscribed endpoint, retried like any event (at least once).",
        channel: { $ref: `#/channels/${OPERATIONAL_CHANNEL}` },
        messages: OPERATIONAL_TYPES.map((type) => ({
          $ref: `#/channels/${OPERATIONAL_CHANNEL}/messages/${operationalComponentId(type)}`,
        })),
      },
    },
    messages,
    schemas,
  };
}

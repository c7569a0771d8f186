// JSON Schemas and examples of the per-delivery operational facts (`switchyard.delivery.*`,
// `switchyard.hook.dead`), decided by the ledger's finish script. Kept apart from the rarer facts'
// (operational-fact-schemas.ts) because their payloads share the delivery and last-attempt fields. The
// examples are typed by the payload interfaces in operational-events.ts, so schema, type and example agree.
import { ERROR_CLASSES } from "./error-class.ts";
import type {
  DeliveryExhaustedPayload,
  DeliveryFailingPayload,
  DeliveryRecoveredPayload,
  HookDeadPayload,
} from "./operational-events.ts";
import {
  type JsonSchema,
  type PayloadDoc,
  instant,
  objectSchema,
  tenantField,
} from "./operational-fact-schemas.ts";

const lastAttempt = objectSchema(
  {
    at: instant,
    status_code: { type: "integer", description: "The HTTP status answered; absent when none was." },
    error_class: { type: "string", enum: [...ERROR_CLASSES] },
    error: { type: "string", description: "What went wrong, for people (at most 1024 characters)." },
  },
  ["at", "status_code", "error_class", "error"],
  "The last attempt made; a field is absent when the row does not know it.",
);

const outbound = {
  delivery_id: { type: "string", description: "dl_…" },
  event_id: { type: "string", description: "The id of the event delivered, as published." },
  event_type: { type: "string" },
  endpoint_id: { type: "string", description: "ep_…" },
  tenant: tenantField,
  attempts: { type: "integer", minimum: 1 },
} as const;

const schemaWith = (extra: Readonly<Record<string, JsonSchema>>): JsonSchema =>
  objectSchema({ ...outbound, ...extra });

const example = {
  delivery_id: "dl_01kbqz9a2b4c6d8e0f1g3h5j7k",
  event_id: "order-42-paid",
  event_type: "order.paid",
  endpoint_id: "ep_01kbqz5w3m8h2x7c4v9n6r1t0a",
  tenant: "acme",
};
const failedAttempt = {
  at: "2026-12-06T11:02:13.004Z",
  status_code: 503,
  error_class: "transient",
  error: "HTTP 503",
} as const;

export const deliveryFailing: PayloadDoc<DeliveryFailingPayload> = {
  description:
    "An outbound delivery failed `operational.failing_after` attempts in a row (sent once per run of failures).",
  schema: objectSchema(
    {
      ...outbound,
      state: {
        type: "string",
        enum: ["retrying", "dead"],
        description: "retrying, or dead when that attempt was its last.",
      },
      last_attempt: lastAttempt,
      next_attempt_at: { ...instant, description: "When it is tried next; absent when dead." },
    },
    ["next_attempt_at"],
  ),
  example: {
    ...example,
    attempts: 4,
    state: "retrying",
    last_attempt: failedAttempt,
    next_attempt_at: "2026-12-06T11:04:13.004Z",
  },
};

export const deliveryExhausted: PayloadDoc<DeliveryExhaustedPayload> = {
  description: "An outbound delivery used up its attempts and went to the DLQ.",
  schema: schemaWith({ last_attempt: lastAttempt, dead_at: instant }),
  example: { ...example, attempts: 8, last_attempt: failedAttempt, dead_at: "2026-12-06T13:40:02.100Z" },
};

export const deliveryRecovered: PayloadDoc<DeliveryRecoveredPayload> = {
  description: "An outbound delivery that had been reported failing was delivered.",
  schema: objectSchema(
    {
      ...outbound,
      status_code: { type: "integer", description: "What the endpoint answered to the delivering attempt." },
      delivered_at: instant,
    },
    ["status_code"],
  ),
  example: { ...example, attempts: 5, status_code: 200, delivered_at: "2026-12-06T11:08:13.512Z" },
};

export const hookDead: PayloadDoc<HookDeadPayload> = {
  description: "An inbound hook could not be delivered to one of its sinks and went to the DLQ.",
  schema: objectSchema({
    delivery_id: { type: "string", description: "dl_…" },
    hook_id: { type: "string", description: "hk_…" },
    source: { type: "string" },
    sink: { type: "string" },
    tenant: tenantField,
    attempts: { type: "integer", minimum: 1 },
    last_attempt: lastAttempt,
    dead_at: instant,
  }),
  example: {
    delivery_id: "dl_01kbqzb7c9d1e3f5g7h9j1k3m5",
    hook_id: "hk_01kbqzb7c9d1e3f5g7h9j1k3m5",
    source: "stripe",
    sink: "orders-amqp",
    attempts: 8,
    last_attempt: {
      at: failedAttempt.at,
      error_class: "transient",
      error: "connect ECONNREFUSED 10.0.0.7:5672",
    },
    dead_at: "2026-12-06T13:40:02.100Z",
  },
};

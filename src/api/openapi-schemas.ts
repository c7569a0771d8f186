// The response shapes /openapi.json refers to, kept beside the path list in openapi-document.ts. Enums come
// from the code that defines them, so the document cannot drift from what the API answers.
import { ERROR_CLASSES } from "../domain/error-class.ts";
import { REPLAY_STATES } from "../domain/replay.ts";
import { DELIVERY_VIEW_STATES } from "./views.ts";

/** A `$ref` to one of the schemas below. */
export const ref = (name: string): Record<string, unknown> => ({ $ref: `#/components/schemas/${name}` });

const string = { type: "string" } as const;
const integer = { type: "integer" } as const;
const instant = { type: "string", format: "date-time" } as const;

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
    properties: {
      id: { ...string, description: "The delivery id (dl_…)." },
      hook_id: string,
      event_id: string,
      source: string,
      tenant: string,
      sink: string,
      endpoint: string,
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

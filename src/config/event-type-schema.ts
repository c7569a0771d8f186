// One entry of the event catalog: an event type an application may publish, with what it means and what
// its payload looks like. The same shape is declared in config (`outbound.event_types`) and posted to
// POST /v1/event-types, so both are checked by this one schema.
import { z } from "zod";
import { isEventType } from "../domain/event-type-name.ts";
import { OPERATIONAL_PREFIX, isOperationalType } from "../domain/operational-events.ts";
import { strict } from "./unknown-keys.ts";

export const MAX_EVENT_TYPE_DESCRIPTION = 1024;
/** Event types the catalog holds at most: config and API each. */
export const MAX_CATALOG_ENTRIES = 1000;
/** Bytes the schema and the example of one event type may take together, as JSON. */
export const MAX_EVENT_TYPE_DOCUMENT_BYTES = 64 * 1024;

export const eventTypeSchema = strict
  .object({
    /** An exact event type (no wildcard): dot-separated segments of A-Z a-z 0-9 _ -. */
    name: z
      .string()
      .refine(isEventType, "must be an event type: dot-separated segments of A-Z a-z 0-9 _ -")
      .refine(
        (name) => !isOperationalType(name),
        `the ${OPERATIONAL_PREFIX} namespace is reserved: its types are built in (operational events)`,
      ),
    description: z.string().max(MAX_EVENT_TYPE_DESCRIPTION).optional(),
    /** A JSON Schema of the payload (an object; kept as given, not enforced at publish). */
    schema: z.record(z.string(), z.unknown()).optional(),
    /** An example payload (any JSON value). */
    example: z.unknown().optional(),
  })
  .refine(
    (t) =>
      Buffer.byteLength(JSON.stringify([t.schema ?? null, t.example ?? null])) <=
      MAX_EVENT_TYPE_DOCUMENT_BYTES,
    {
      message: `schema and example take at most ${MAX_EVENT_TYPE_DOCUMENT_BYTES} bytes of JSON`,
      path: ["schema"],
    },
  );

export type EventTypeDecl = z.infer<typeof eventTypeSchema>;

// Checks received operational events against the payload schemas the catalog, /asyncapi.json and the
// README publish (src/domain/operational-schemas.ts): what a receiver really gets must be what is documented.
import ajvModule from "ajv";
import formats from "ajv-formats";
import { type OperationalType, isOperationalType } from "../../src/domain/operational-events.ts";
import { OPERATIONAL_SCHEMAS } from "../../src/domain/operational-schemas.ts";
import type { ReceivedEvent } from "./operational.ts";

// Both packages are CommonJS with their export on `default`.
const ajv = new ajvModule.default({ strict: true, allErrors: true });
formats.default(ajv);

/** One line per received event whose payload its type's schema refuses (empty when all are valid). */
export function undocumentedPayloads(events: readonly ReceivedEvent[]): string[] {
  return events.flatMap((e) => {
    if (!isOperationalType(e.type)) return [`${e.id}: not an operational type ${e.type}`];
    const validate = ajv.compile(OPERATIONAL_SCHEMAS[e.type as OperationalType].schema);
    return validate(e.data) ? [] : [`${e.type} ${e.id}: ${ajv.errorsText(validate.errors)}`];
  });
}

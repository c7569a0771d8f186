// Every operational event type has a payload schema and an example, and the example is valid against
// the schema (so the documentation a receiver reads is true of at least one real payload).
import ajvModule from "ajv";
import formats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { OPERATIONAL_TYPES } from "../../src/domain/operational-events.ts";
import { OPERATIONAL_SCHEMAS } from "../../src/domain/operational-schemas.ts";

// Both packages are CommonJS with their export on `default`.
const ajv = new ajvModule.default({ strict: true, allErrors: true });
formats.default(ajv);

describe("operational event schemas", () => {
  it("documents every operational type, and nothing else", () => {
    expect(Object.keys(OPERATIONAL_SCHEMAS).sort()).toEqual([...OPERATIONAL_TYPES].sort());
  });

  it.each([...OPERATIONAL_TYPES])("%s: the example is valid against the schema", (type) => {
    const doc = OPERATIONAL_SCHEMAS[type];
    const validate = ajv.compile(doc.schema);
    const ok = validate(doc.example);
    expect(validate.errors ?? [], JSON.stringify(validate.errors)).toEqual([]);
    expect(ok).toBe(true);
    expect(doc.description.length).toBeGreaterThan(10);
  });

  it("a schema refuses a payload missing a field or carrying an unknown one", () => {
    const doc = OPERATIONAL_SCHEMAS["switchyard.breaker.opened"];
    const validate = ajv.compile(doc.schema);
    const { target: _target, ...withoutTarget } = doc.example as Record<string, unknown>;
    expect(validate(withoutTarget)).toBe(false);
    expect(validate({ ...(doc.example as object), secret: "whsec_x" })).toBe(false);
  });

  it("no example carries a secret", () => {
    const text = JSON.stringify(OPERATIONAL_SCHEMAS);
    expect(text).not.toMatch(/whsec_|"secret"\s*:/);
  });
});

// Checks answers against the served OpenAPI document: the route's operation is found by its path
// template, the status must be one the operation documents, and a JSON body must match that status's
// schema, strictly: a field the schema does not declare is a mismatch (the document must describe all
// that the API sends), as are a wrong type, a missing required field or a value outside an enum.
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = Record<string, Json>;

export interface OpenApiDocument {
  readonly paths: Record<string, Record<string, { responses: Record<string, Schema> }>>;
  readonly components: { readonly schemas: Record<string, Schema> };
}

/** The document's template of a concrete path (`/v1/endpoints/ep_1` → `/v1/endpoints/{id}`), or undefined. */
export function templateOf(doc: OpenApiDocument, method: string, path: string): string | undefined {
  const segments = path.split("?")[0]!.split("/");
  return Object.keys(doc.paths).find((template) => {
    const parts = template.split("/");
    return (
      parts.length === segments.length &&
      parts.every((p, i) => p === segments[i] || (p.startsWith("{") && segments[i] !== "")) &&
      doc.paths[template]?.[method.toLowerCase()] !== undefined
    );
  });
}

function resolve(doc: OpenApiDocument, schema: Schema): Schema {
  const ref = schema.$ref;
  if (typeof ref !== "string") return schema;
  const target = doc.components.schemas[ref.replace("#/components/schemas/", "")];
  if (!target) throw new Error(`unresolvable ${ref}`);
  return resolve(doc, target);
}

function typeOf(value: Json): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** Where `value` departs from `schema` (empty when it matches). */
export function mismatches(doc: OpenApiDocument, schemaIn: Schema, value: Json, at = "body"): string[] {
  const schema = resolve(doc, schemaIn);
  const problems: string[] = [];
  for (const key of ["anyOf", "oneOf"] as const) {
    const options = schema[key];
    if (Array.isArray(options)) {
      const fits = options.some((o) => mismatches(doc, o as Schema, value, at).length === 0);
      if (!fits) problems.push(`${at}: matches none of ${key} (${JSON.stringify(value)?.slice(0, 80)})`);
    }
  }
  if (Array.isArray(schema.allOf)) {
    // allOf parts declare fields between them: check each part's own rules, and unknown fields on the union.
    const merged = { ...schema, allOf: undefined } as unknown as Schema;
    for (const part of schema.allOf) {
      const p = resolve(doc, part as Schema);
      merged.properties = { ...(merged.properties as object), ...(p.properties as object) };
      merged.required = [...((merged.required as string[]) ?? []), ...((p.required as string[]) ?? [])];
      if (merged.type === undefined && p.type !== undefined) merged.type = p.type;
    }
    return mismatches(doc, merged, value, at);
  }
  const actual = typeOf(value);
  const types = schema.type === undefined ? undefined : ([] as Json[]).concat(schema.type);
  if (types && !types.includes(actual) && !(actual === "integer" && types.includes("number")))
    return [`${at}: is ${actual}, documented ${types.join("|")}`];
  if (Array.isArray(schema.enum) && !schema.enum.includes(value))
    problems.push(`${at}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
  if ("const" in schema && schema.const !== value)
    problems.push(`${at}: ${JSON.stringify(value)} is not ${JSON.stringify(schema.const)}`);
  if (actual === "array" && schema.items)
    (value as Json[]).forEach((item, i) =>
      problems.push(...mismatches(doc, schema.items as Schema, item, `${at}[${i}]`)),
    );
  if (actual === "object" && (schema.properties || schema.additionalProperties !== undefined)) {
    const object = value as Record<string, Json>;
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    for (const name of (schema.required as string[] | undefined) ?? [])
      if (!(name in object)) problems.push(`${at}.${name}: required, missing`);
    for (const [name, field] of Object.entries(object)) {
      const declared = properties[name];
      if (declared) problems.push(...mismatches(doc, declared, field, `${at}.${name}`));
      else if (schema.additionalProperties && typeof schema.additionalProperties === "object")
        problems.push(...mismatches(doc, schema.additionalProperties as Schema, field, `${at}.${name}`));
      else if (schema.additionalProperties !== true) problems.push(`${at}.${name}: not in the document`);
    }
  }
  return problems;
}

/** Everything wrong with answering `method path` with `status` and `body` (undefined: no JSON body). */
export function answerProblems(
  doc: OpenApiDocument,
  method: string,
  path: string,
  status: number,
  contentType: string | null,
  body: Json | undefined,
): string[] {
  const template = templateOf(doc, method, path);
  if (!template) return [`${method} ${path}: no such operation in the document`];
  const responses = doc.paths[template]![method.toLowerCase()]!.responses;
  const documented = responses[String(status)];
  if (!documented)
    return [`${method} ${template}: answered ${status}, documented ${Object.keys(responses).join(", ")}`];
  const content = documented.content as Record<string, { schema?: Schema }> | undefined;
  if (!content)
    return body === undefined ? [] : [`${method} ${template} ${status}: a body where none is documented`];
  const media = contentType?.split(";")[0]?.trim() ?? "";
  const described = content[media];
  if (!described)
    return [
      `${method} ${template} ${status}: ${media} is not documented (${Object.keys(content).join(", ")})`,
    ];
  if (media !== "application/json" || !described.schema) return [];
  return mismatches(doc, described.schema, body ?? null).map((p) => `${method} ${template} ${status}: ${p}`);
}

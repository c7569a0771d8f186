// Request bodies of the endpoints API, validated field by field with messages that name the field, so a
// caller learns every rule from a 400 rather than from a delivery that never arrives. The SSRF check of the
// URL is separate (it may need DNS); this module is pure.
import { z } from "@hono/zod-openapi";
import { NAME } from "../config/schema.ts";
import { isEventTypePattern } from "../domain/event.ts";
import { REDACTED } from "../domain/endpoint-snapshot.ts";
import { hasMaskedPassword } from "../domain/masked-url.ts";
import { PAYLOAD_FORMATS } from "../domain/outbound-body.ts";

export const MAX_EVENT_TYPES = 100;
export const MAX_RATE_LIMIT_PER_S = 100_000;
export const MAX_DESCRIPTION_LENGTH = 1024;
export const MAX_URL_LENGTH = 2048;
export const MAX_HEADERS = 50;
export const MAX_HEADER_VALUE_LENGTH = 4096;

// What views show instead of a credential header's value; refused as input so it never overwrites one.
export { REDACTED };

/**
 * Headers an endpoint may not set: hop-by-hop ones (they describe our connection, not the message), the
 * ones the delivery itself owns (body framing, host, content type), and the signature and identity headers
 * a receiver trusts (`webhook-*`, `x-switchyard-*`).
 */
const RESERVED_HEADERS = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
  "expect",
  "host",
  "content-type",
  "content-length",
  "content-encoding",
]);
const RESERVED_PREFIXES = ["webhook-", "x-switchyard-"];
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// Visible ASCII, space, tab and obs-text; no CR, LF or NUL (which would split or end the header).
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Why `name` cannot be a configured header, or undefined. */
export function headerNameProblem(name: string): string | undefined {
  if (!TOKEN.test(name)) return "is not a valid header name";
  const lower = name.toLowerCase();
  if (RESERVED_HEADERS.has(lower)) return "is set by Switchyard (or is hop-by-hop) and cannot be configured";
  if (RESERVED_PREFIXES.some((p) => lower.startsWith(p)))
    return `${RESERVED_PREFIXES.map((p) => `${p}*`).join(" and ")} headers are set by Switchyard`;
  return undefined;
}

const url = z
  .string()
  .max(MAX_URL_LENGTH, `must be at most ${MAX_URL_LENGTH} characters`)
  .refine((value) => {
    try {
      const u = new URL(value);
      return u.protocol === "http:" || u.protocol === "https:";
    } catch {
      return false;
    }
  }, "must be an absolute http or https URL")
  .refine((value) => !hasMaskedPassword(value), "send the real password, not ***");

const eventTypes = z
  .array(
    z
      .string()
      .refine(isEventTypePattern, "must be an event type (order.paid), a prefix wildcard (order.*) or *"),
  )
  .min(1, "must list at least one event type pattern")
  .max(MAX_EVENT_TYPES, `at most ${MAX_EVENT_TYPES} patterns`)
  .superRefine((patterns, ctx) => {
    // A set: a pattern listed twice is a mistake, refused rather than silently kept twice.
    const seen = new Set<string>();
    patterns.forEach((pattern, i) => {
      if (seen.has(pattern))
        ctx.addIssue({ code: "custom", path: [i], message: `"${pattern}" is listed twice` });
      seen.add(pattern);
    });
  });

const headers = z.record(z.string(), z.string()).superRefine((record, ctx) => {
  const names = Object.keys(record);
  if (names.length > MAX_HEADERS) ctx.addIssue({ code: "custom", message: `at most ${MAX_HEADERS} headers` });
  const seen = new Set<string>();
  for (const [name, value] of Object.entries(record)) {
    const problem = headerNameProblem(name);
    if (problem !== undefined) ctx.addIssue({ code: "custom", path: [name], message: problem });
    if (seen.has(name.toLowerCase()))
      ctx.addIssue({ code: "custom", path: [name], message: "is given twice (names are case-insensitive)" });
    seen.add(name.toLowerCase());
    if (!HEADER_VALUE.test(value) || value.length > MAX_HEADER_VALUE_LENGTH)
      ctx.addIssue({
        code: "custom",
        path: [name],
        message: `value must be at most ${MAX_HEADER_VALUE_LENGTH} characters, without CR, LF or NUL`,
      });
    if (value === REDACTED)
      ctx.addIssue({ code: "custom", path: [name], message: `send the real value, not ${REDACTED}` });
  }
});

const rateLimit = z
  .number()
  .int("must be an integer")
  .positive("must be positive")
  .max(MAX_RATE_LIMIT_PER_S, `must be at most ${MAX_RATE_LIMIT_PER_S}`);
const description = z
  .string()
  .max(MAX_DESCRIPTION_LENGTH, `must be at most ${MAX_DESCRIPTION_LENGTH} characters`);
const tenant = z.string().regex(NAME, "must match [A-Za-z0-9_-]{1,64}");
const secret = z.string().max(200, "is too long");
const payloadFormat = z.enum(PAYLOAD_FORMATS, { error: `must be one of ${PAYLOAD_FORMATS.join(", ")}` });

const urlField = url.openapi({ format: "uri", description: "http or https, and not internal." });
const headersField = headers.openapi({
  description:
    "Extra request headers: not hop-by-hop, host, content-*, webhook-* or x-switchyard-* ones. Replaces the whole set.",
});
const secretField = secret.openapi({ description: "whsec_ + base64 of 24–64 bytes; generated if absent." });

export const createEndpointBody = z
  .strictObject({
    url: urlField,
    event_types: eventTypes,
    secret: secretField.optional(),
    tenant: tenant
      .optional()
      .openapi({ description: "A tenant-bound token's own tenant is used (and no other is accepted)." }),
    rate_limit_per_s: rateLimit.optional(),
    headers: headersField.optional(),
    payload_format: payloadFormat.optional(),
    description: description.optional(),
    disabled: z.boolean().optional(),
  })
  .openapi("EndpointInput");
export type CreateEndpointBody = z.infer<typeof createEndpointBody>;

export const patchEndpointBody = z
  .strictObject({
    url: urlField.optional(),
    event_types: eventTypes.optional(),
    headers: headersField.optional(),
    rate_limit_per_s: rateLimit.nullable().optional().openapi({ description: "null clears it." }),
    payload_format: payloadFormat.optional(),
    description: description.nullable().optional().openapi({ description: "null clears it." }),
    disabled: z.boolean().optional(),
    // Accepted only to answer with a clear message: the tenant of an endpoint is fixed at creation.
    tenant: z.unknown().optional().openapi({ description: "Fixed at creation: sending it is refused." }),
  })
  .openapi("EndpointPatch");
export type PatchEndpointBody = z.infer<typeof patchEndpointBody>;

export const rotateSecretBody = z
  .strictObject({ secret: secretField.optional() })
  .openapi("RotateSecretInput");

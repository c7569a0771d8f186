// Outbound events as an application publishes them, validated once at the edge, and the grammar endpoints
// subscribe with: the publish path, the endpoints API and the subscription indexes must agree on what
// `order.*` matches, so the matching rules live here and nowhere else.
import { NAME } from "../config/schema.ts";
import { newId } from "./ids.ts";
import { EVENT_TYPE_MAX_LENGTH, isEventType } from "./event-type-name.ts";
import { isOperationalType } from "./operational-events.ts";

/** Longest event type, and longest subscription pattern (event-type-name.ts). */
export { EVENT_TYPE_MAX_LENGTH, isEventType };

/**
 * A user-supplied event id: 1–128 of `A-Z a-z 0-9 _ . : -`. Wide enough for UUIDs, ULIDs, Stripe-style
 * `evt_…` ids and `order:42:paid`-style keys; narrow enough to sit in a Redis key, a header and a log line.
 */
export const EVENT_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

/**
 * The ledger's name of an event: event ids are scoped by tenant, so two tenants may use the same id.
 * A tenant's event is `<tenant>/<id>`, a tenantless one its bare id; `/` is in neither a tenant name
 * nor an event id, so no two scopes can meet.
 */
export function eventRef(tenant: string | undefined, id: string): string {
  return tenant === undefined ? id : `${tenant}/${id}`;
}

/** The event id a ledger name (`eventRef`) stands for, as the publisher gave it. */
export function eventIdOf(ref: string): string {
  return ref.slice(ref.indexOf("/") + 1);
}

const PATTERN = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*(\.\*)?$/;

/** Is `value` a subscription pattern: an event type, an event type followed by `.*`, or `*`? */
export function isEventTypePattern(value: string): boolean {
  return value === "*" || (value.length <= EVENT_TYPE_MAX_LENGTH && PATTERN.test(value));
}

/**
 * Does `pattern` match event type `type`? `*` matches every type but the gateway's own operational ones
 * (`switchyard.…`: only a subscription that names them, `switchyard.*` or below, receives them); `a.b.*`
 * matches every type below `a.b` at any depth (`a.b.c`, `a.b.c.d`) but not `a.b` itself; anything else
 * matches only itself (case matters).
 */
export function matchesPattern(pattern: string, type: string): boolean {
  if (pattern === "*") return !isOperationalType(type);
  if (pattern.endsWith(".*")) return type.startsWith(pattern.slice(0, -1));
  return pattern === type;
}

/**
 * Every pattern that matches `type`: the type itself, `prefix.*` for each proper dot-prefix, and `*`
 * unless the type is operational (`a.b.c` → `a.b.c`, `a.*`, `a.b.*`, `*`). These are the subscription
 * indexes one event reads, so they agree with matchesPattern.
 */
export function patternsOf(type: string): string[] {
  const out = [type];
  for (let dot = type.indexOf("."); dot >= 0; dot = type.indexOf(".", dot + 1))
    out.push(`${type.slice(0, dot)}.*`);
  if (!isOperationalType(type)) out.push("*");
  return out;
}

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A validated event, ready to fan out. */
export interface EventInput {
  /** The caller's id, or a fresh `ev_…` one. */
  readonly id: string;
  /** True when Switchyard made the id (so it cannot collide with an earlier publish). */
  readonly generatedId: boolean;
  readonly type: string;
  readonly payload: JsonValue;
  /** The payload serialized once: these exact bytes are signed and sent to every endpoint. */
  readonly body: Buffer;
  /** A tenant named in the body; how it combines with the caller's token is the publish route's call. */
  readonly tenant: string | undefined;
}

export type ParsedEvent =
  { readonly ok: true; readonly event: EventInput } | { readonly ok: false; readonly errors: string[] };

export interface ParseEventOptions {
  /** Refuse payloads larger than this once serialized. */
  readonly maxPayloadBytes?: number;
  /** Clock for generated ids. */
  readonly now?: number;
}

const FIELDS = new Set(["id", "type", "payload", "tenant"]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function serialize(payload: unknown): Buffer | undefined {
  try {
    const text = JSON.stringify(payload);
    return typeof text === "string" ? Buffer.from(text, "utf8") : undefined;
  } catch {
    return undefined; // a cycle or a BigInt: not JSON
  }
}

/**
 * Validate a publish body `{ type, payload, id?, tenant? }` (normally straight from JSON.parse). Returns
 * the event, or every problem found, each message naming its field.
 */
export function parseEventInput(body: unknown, opts: ParseEventOptions = {}): ParsedEvent {
  if (!isRecord(body)) return { ok: false, errors: ["body: must be a JSON object"] };
  const errors: string[] = [];
  for (const key of Object.keys(body)) if (!FIELDS.has(key)) errors.push(`${key}: unknown field`);

  const { id, type, payload, tenant } = body;
  if (id !== undefined && (typeof id !== "string" || !EVENT_ID.test(id)))
    errors.push("id: must be 1–128 characters of A-Z a-z 0-9 _ . : -");
  if (typeof type !== "string") errors.push("type: required, a string");
  else if (!isEventType(type))
    errors.push(
      `type: must be dot-separated segments of A-Z a-z 0-9 _ - (at most ${EVENT_TYPE_MAX_LENGTH} characters)`,
    );
  if (tenant !== undefined && (typeof tenant !== "string" || !NAME.test(tenant)))
    errors.push("tenant: must match [A-Za-z0-9_-]{1,64}");

  let bytes: Buffer | undefined;
  if (payload === undefined) errors.push("payload: required (any JSON value, null included)");
  else {
    bytes = serialize(payload);
    if (bytes === undefined) errors.push("payload: not a JSON value");
    else if (opts.maxPayloadBytes !== undefined && bytes.length > opts.maxPayloadBytes)
      errors.push(`payload: ${bytes.length} bytes serialized, more than the ${opts.maxPayloadBytes} allowed`);
  }

  if (errors.length > 0 || bytes === undefined || typeof type !== "string") return { ok: false, errors };
  const given = typeof id === "string" ? id : undefined;
  return {
    ok: true,
    event: {
      id: given ?? newId("ev", opts.now),
      generatedId: given === undefined,
      type,
      payload: payload as JsonValue,
      body: bytes,
      tenant: typeof tenant === "string" ? tenant : undefined,
    },
  };
}

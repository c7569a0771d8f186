// How an endpoint sits in its Redis hash, and which indexes it belongs in. Kept apart from the store so the
// mapping is one pure function each way, and the store only decides what to write when.
import type { Endpoint, EndpointId, PreviousSecret } from "../domain/endpoint.ts";
import { type PayloadFormat, isPayloadFormat } from "../domain/outbound-body.ts";
import type { Keys } from "./keys.ts";

/** What an endpoint stored before payload_format existed receives: the bare payload, as it always did. */
const LAYOUT_1_PAYLOAD_FORMAT: PayloadFormat = "raw";

/** An endpoint as read, with the revision its next write must name (see update-endpoint-n.lua). */
export interface StoredEndpoint {
  readonly endpoint: Endpoint;
  readonly rev: string;
}

/** The hash fields of `e` (absent optional fields are absent; the revision is not among them). */
export function endpointFields(e: Endpoint): Record<string, string> {
  const fields: Record<string, string> = {
    id: e.id,
    url: e.url,
    event_types: JSON.stringify(e.event_types),
    headers: JSON.stringify(e.headers),
    payload_format: e.payload_format,
    disabled: e.disabled ? "1" : "0",
    version: String(e.version),
    created_at: String(e.created_at),
    updated_at: String(e.updated_at),
    secret: e.secret,
    previous_secrets: JSON.stringify(e.previous_secrets),
  };
  const optional = {
    tenant: e.tenant,
    rate_limit_per_s: e.rate_limit_per_s,
    disabled_reason: e.disabled_reason,
    disabled_at: e.disabled_at,
    description: e.description,
    failing_since: e.failing_since,
  };
  for (const [k, v] of Object.entries(optional)) if (v !== undefined) fields[k] = String(v);
  return fields;
}

const num = (v: string | undefined): number | undefined => (v === undefined ? undefined : Number(v));

function json<T>(v: string | undefined, fallback: T): T {
  if (v === undefined) return fallback;
  try {
    return JSON.parse(v) as T;
  } catch {
    return fallback;
  }
}

/** The endpoint in an HGETALL reply, or undefined for an empty reply (no such endpoint). */
export function parseEndpointRecord(raw: Record<string, string>): StoredEndpoint | undefined {
  if (raw.id === undefined || raw.rev === undefined) return undefined;
  return {
    rev: raw.rev,
    endpoint: {
      id: raw.id as EndpointId,
      url: raw.url ?? "",
      event_types: json<string[]>(raw.event_types, []),
      tenant: raw.tenant,
      headers: json<Record<string, string>>(raw.headers, {}),
      rate_limit_per_s: num(raw.rate_limit_per_s),
      // Every endpoint this release writes has the field: one without it was written by release 0.1.0
      // (an old process beside new ones during an upgrade, after the migration stamped the others),
      // whose receivers get the bare payload. Reading it as `raw` keeps what they get.
      payload_format:
        raw.payload_format !== undefined && isPayloadFormat(raw.payload_format)
          ? raw.payload_format
          : LAYOUT_1_PAYLOAD_FORMAT,
      disabled: raw.disabled === "1",
      disabled_reason: raw.disabled_reason,
      disabled_at: num(raw.disabled_at),
      description: raw.description,
      version: Number(raw.version ?? 0),
      created_at: Number(raw.created_at ?? 0),
      updated_at: Number(raw.updated_at ?? 0),
      failing_since: num(raw.failing_since),
      secret: raw.secret ?? "",
      previous_secrets: json<PreviousSecret[]>(raw.previous_secrets, []),
    },
  };
}

/**
 * The list indexes an endpoint is in: all endpoints, and its scope's (its tenant's, or the tenantless
 * one), which the cap on endpoints per tenant counts.
 */
export function listKeys(keys: Keys, tenant: string | undefined): string[] {
  return [
    keys.endpointsAll,
    tenant === undefined ? keys.endpointsWithoutTenant : keys.endpointsOfTenant(tenant),
  ];
}

/** The subscription sets an endpoint is in: one per pattern while enabled, none while disabled. */
export function subscriptionKeys(
  keys: Keys,
  e: Pick<Endpoint, "tenant" | "event_types" | "disabled">,
): string[] {
  return e.disabled ? [] : e.event_types.map((p) => keys.endpointSubscribers(e.tenant, p));
}

/** What turns the hash of `before` into the hash of `after`: fields to set, fields to delete. */
export function fieldChanges(
  before: Endpoint,
  after: Endpoint,
): { set: Record<string, string>; del: string[] } {
  const a = endpointFields(before);
  const b = endpointFields(after);
  const set: Record<string, string> = {};
  for (const [k, v] of Object.entries(b)) if (a[k] !== v) set[k] = v;
  return { set, del: Object.keys(a).filter((k) => !(k in b)) };
}

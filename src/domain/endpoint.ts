// An outbound endpoint: where fanned-out events go, and the secrets they are signed with. Secret rotation
// is pure and lives here so the store, the API and the delivery worker agree on which secrets are live: a
// rotated-out secret keeps signing for a while so receivers can switch over without dropping a delivery.
import type { EndpointId } from "./ids.ts";
import type { PayloadFormat } from "./outbound-body.ts";
import { decodeSecret } from "./signing.ts";

export type { EndpointId };

/** Secret length bounds, in decoded bytes. */
export const SECRET_MIN_BYTES = 24;
export const SECRET_MAX_BYTES = 64;
/** How long a rotated-out secret keeps signing. */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;
/** Rotated-out secrets kept at most (newest first); older ones stop signing early. */
export const MAX_PREVIOUS_SECRETS = 10;

export interface PreviousSecret {
  readonly secret: string;
  /** Milliseconds since the epoch after which it no longer signs. */
  readonly expires_at: number;
}

/** An endpoint as stored. Holds its secrets: never hand one of these to an API answer as is. */
export interface Endpoint {
  readonly id: EndpointId;
  readonly url: string;
  /** Subscription patterns (see src/domain/event.ts), deduplicated, in the order given. */
  readonly event_types: readonly string[];
  /** Set: receives only this tenant's events. Unset: receives only events published without a tenant. */
  readonly tenant: string | undefined;
  /** Extra request headers, lower-cased names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly rate_limit_per_s: number | undefined;
  /** The body each delivery carries (see src/domain/outbound-body.ts). */
  readonly payload_format: PayloadFormat;
  readonly disabled: boolean;
  readonly disabled_reason: string | undefined;
  readonly disabled_at: number | undefined;
  readonly description: string | undefined;
  /**
   * Bumped by every change of url, event_types, headers, payload_format, secret or disabled: a worker that claimed a
   * delivery at version v acts on the answer (e.g. disables on a 410) only if the version is still v.
   */
  readonly version: number;
  readonly created_at: number;
  readonly updated_at: number;
  /** When deliveries started failing without a success since; unset while healthy. */
  readonly failing_since: number | undefined;
  readonly secret: string;
  /** Rotated-out secrets, newest first. */
  readonly previous_secrets: readonly PreviousSecret[];
}

/** Why `secret` cannot be an endpoint secret, or undefined when it can (`whsec_` + base64 of 24–64 bytes). */
export function secretProblem(secret: string): string | undefined {
  if (!secret.startsWith("whsec_")) return "must start with whsec_";
  let key: Buffer;
  try {
    key = decodeSecret(secret);
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  if (key.length < SECRET_MIN_BYTES || key.length > SECRET_MAX_BYTES)
    return `must decode to ${SECRET_MIN_BYTES}–${SECRET_MAX_BYTES} bytes, not ${key.length}`;
  return undefined;
}

/** The secrets to sign with at `now`: the current one first, then every unexpired previous one. */
export function liveSecrets(e: Pick<Endpoint, "secret" | "previous_secrets">, now: number): string[] {
  return [e.secret, ...e.previous_secrets.filter((p) => p.expires_at > now).map((p) => p.secret)];
}

/**
 * The secrets after rotating to `next` at `now`: the current secret joins the previous ones for
 * SECRET_OVERLAP_MS, expired ones are dropped, and at most MAX_PREVIOUS_SECRETS are kept (the newest).
 */
export function rotatedSecrets(
  e: Pick<Endpoint, "secret" | "previous_secrets">,
  next: string,
  now: number,
): Pick<Endpoint, "secret" | "previous_secrets"> {
  const previous = [
    { secret: e.secret, expires_at: now + SECRET_OVERLAP_MS },
    ...e.previous_secrets.filter((p) => p.expires_at > now && p.secret !== next),
  ];
  return { secret: next, previous_secrets: previous.slice(0, MAX_PREVIOUS_SECRETS) };
}

/** The reason recorded when an operator disables an endpoint through the API. */
export const MANUAL_DISABLE_REASON = "disabled by an operator";

/** A partial change; `null` clears an optional field. The tenant never changes. */
export interface EndpointPatch {
  readonly url?: string;
  readonly event_types?: readonly string[];
  readonly headers?: Readonly<Record<string, string>>;
  readonly rate_limit_per_s?: number | null;
  readonly payload_format?: PayloadFormat;
  readonly description?: string | null;
  readonly disabled?: boolean;
  /** With `disabled: true`: why (default MANUAL_DISABLE_REASON). */
  readonly disabled_reason?: string;
}

type Changeable = Omit<Endpoint, "id" | "tenant" | "created_at" | "updated_at" | "version">;

/** What a receiver's view of the endpoint depends on: a change here bumps `version`. */
const versioned = (e: Endpoint): string =>
  JSON.stringify([
    e.url,
    e.event_types,
    Object.entries(e.headers).sort(),
    e.payload_format,
    e.secret,
    e.disabled,
  ]);

/**
 * `e` with `changes` applied at `now`: `updated_at` moves and `version` is bumped when a versioned field
 * (url, event_types, headers, payload_format, secret, disabled) actually changed. Returns `e` itself when nothing did.
 */
export function changeEndpoint(e: Endpoint, changes: Partial<Changeable>, now: number): Endpoint {
  const next: Endpoint = { ...e, ...changes };
  if (JSON.stringify(next) === JSON.stringify(e)) return e;
  return { ...next, updated_at: now, version: versioned(next) === versioned(e) ? e.version : e.version + 1 };
}

/** Deduplicated patterns, first occurrence kept. */
export const uniquePatterns = (patterns: readonly string[]): string[] => [...new Set(patterns)];

/** Header names lower-cased (the last of two spellings of one name wins). */
export function normalizeHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = value;
  return out;
}

/** `e` after `patch` at `now` (see changeEndpoint). Re-enabling clears the disable and the failure clock. */
export function patchEndpoint(e: Endpoint, patch: EndpointPatch, now: number): Endpoint {
  const changes: { -readonly [K in keyof Changeable]?: Changeable[K] } = {};
  if (patch.url !== undefined) changes.url = patch.url;
  if (patch.event_types !== undefined) changes.event_types = uniquePatterns(patch.event_types);
  if (patch.headers !== undefined) changes.headers = normalizeHeaders(patch.headers);
  if (patch.rate_limit_per_s !== undefined) changes.rate_limit_per_s = patch.rate_limit_per_s ?? undefined;
  if (patch.payload_format !== undefined) changes.payload_format = patch.payload_format;
  if (patch.description !== undefined) changes.description = patch.description ?? undefined;
  if (patch.disabled === true && !e.disabled) {
    changes.disabled = true;
    changes.disabled_reason = patch.disabled_reason ?? MANUAL_DISABLE_REASON;
    changes.disabled_at = now;
  } else if (patch.disabled === false && e.disabled) {
    changes.disabled = false;
    changes.disabled_reason = undefined;
    changes.disabled_at = undefined;
    changes.failing_since = undefined;
  }
  return changeEndpoint(e, changes, now);
}

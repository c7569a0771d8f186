// An endpoint as the API shows it: no secrets, credential header values and a URL password masked,
// ISO timestamps. The admin API answers with it and the `switchyard.endpoint.*` operational events carry
// it, so the two can never disagree on what an endpoint's config looks like to someone without its secret.
import type { Endpoint } from "./endpoint.ts";
import { maskUserinfo } from "./masked-url.ts";
import type { PayloadFormat } from "./outbound-body.ts";

/** Header names that are credentials, not data: their values are masked in answers and events. */
export const CREDENTIAL_HEADER =
  /^(authorization|proxy-authorization|cookie)$|api[-_]?key|token|secret|password/i;

/** What views show instead of a credential header's value. */
export const REDACTED = "[redacted]";

export interface EndpointSnapshot {
  readonly id: string;
  readonly url: string;
  readonly event_types: string[];
  readonly tenant: string | undefined;
  readonly headers: Record<string, string>;
  readonly rate_limit_per_s: number | undefined;
  readonly payload_format: PayloadFormat;
  readonly disabled: boolean;
  readonly disabled_reason: string | undefined;
  readonly disabled_at: string | undefined;
  readonly description: string | undefined;
  readonly version: number;
  readonly created_at: string;
  readonly updated_at: string;
  readonly failing_since: string | undefined;
}

const isoOrUndefined = (ms: number | undefined): string | undefined =>
  ms === undefined || !Number.isFinite(ms) ? undefined : new Date(ms).toISOString();

/** `headers` with every credential header's value replaced by {@link REDACTED}. */
export function redactedHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([k, v]) => [k, CREDENTIAL_HEADER.test(k) ? REDACTED : v]),
  );
}

/** The endpoint without its secrets (see the module comment). */
export function endpointSnapshot(e: Endpoint): EndpointSnapshot {
  return {
    id: e.id,
    url: maskUserinfo(e.url),
    event_types: [...e.event_types],
    tenant: e.tenant,
    headers: redactedHeaders(e.headers),
    rate_limit_per_s: e.rate_limit_per_s,
    payload_format: e.payload_format,
    disabled: e.disabled,
    disabled_reason: e.disabled_reason,
    disabled_at: isoOrUndefined(e.disabled_at),
    description: e.description,
    version: e.version,
    created_at: new Date(e.created_at).toISOString(),
    updated_at: new Date(e.updated_at).toISOString(),
    failing_since: isoOrUndefined(e.failing_since),
  };
}

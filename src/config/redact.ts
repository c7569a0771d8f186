// What `print-config` shows: the effective config with every credential replaced, so it can be pasted
// into a ticket. Redaction errs towards hiding: values under credential-like keys, every sink header
// value (providers name their auth headers anything: X-Auth-Token, PRIVATE-TOKEN), and the userinfo,
// query string, fragment and path beyond its first segment of anything shaped like a URL, and the
// userinfo of a `user:pw@host` broker address.

/** Keys whose string values are credentials, wherever they appear. */
const SECRET_KEY = /secret|token|passw|api[-_]?key|signing[-_]?key|credential|authorization|cookie/i;
/**
 * Keys whose every value is masked, names kept: HTTP headers can carry a credential under any name, and
 * `secrets_by_tenant` maps tenant names (fine to show) to secrets.
 */
const ALL_VALUES_KEY = /^(headers|secrets_by_tenant)$/i;
export const MASK = "[redacted]";

/**
 * `scheme://` (optional; `_` allowed, as in Kafka's `sasl_ssl://`), then the authority up to the first
 * `/`, `?` or `#`, then the rest.
 */
const ADDRESS = /^([a-z][a-z0-9+._-]*:\/\/)?([^/?#\s]*)(.*)$/is;

/**
 * A path keeps its first segment (`/hooks`, a vhost, a database number); the rest may be a credential
 * (Slack's `/services/T…/B…/<token>`, a relay's `/in/<token>`) and becomes one masked segment.
 */
function maskLaterSegments(rest: string): string {
  const end = rest.search(/[?#]/);
  const path = end < 0 ? rest : rest.slice(0, end);
  const second = path.indexOf("/", 1);
  if (!path.startsWith("/") || second < 0 || second === path.length - 1) return rest;
  return `${path.slice(0, second)}/${MASK}${end < 0 ? "" : rest.slice(end)}`;
}

/**
 * Mask the userinfo of `value`, and when it has a scheme its query, fragment and every path segment
 * after the first.
 */
export function redactAddress(value: string): string {
  const match = ADDRESS.exec(value);
  if (!match) return value;
  const scheme = match[1] ?? "";
  let authority = match[2] ?? "";
  let rest = match[3] ?? "";
  const at = authority.lastIndexOf("@");
  if (at >= 0) authority = `${MASK}@${authority.slice(at + 1)}`;
  if (scheme !== "") {
    rest = maskLaterSegments(rest)
      .replace(/\?[^#]*/, `?${MASK}`)
      .replace(/#.*$/s, `#${MASK}`);
  }
  return `${scheme}${authority}${rest}`;
}

function maskValue(value: unknown): unknown {
  if (typeof value === "string") return value === "" ? value : MASK;
  if (Array.isArray(value)) return value.map(maskValue);
  // An object under a credential key (`tokens: [{ token, tenant }]`) keeps its other fields readable.
  if (value !== null && typeof value === "object") return redact(value);
  return value;
}

/** A deep copy of `value` with credentials masked. */
export function redact(value: unknown, key?: string): unknown {
  if (key !== undefined && ALL_VALUES_KEY.test(key) && value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, Array.isArray(v) ? v.map(() => MASK) : MASK]),
    );
  }
  if (key !== undefined && SECRET_KEY.test(key)) return maskValue(value);
  if (typeof value === "string") return redactAddress(value);
  if (Array.isArray(value)) return value.map((v) => redact(v));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redact(v, k)]));
  }
  return value;
}

// What `print-config` shows: the effective config with every secret replaced, so it can be pasted
// into a ticket. Secrets are found by key name and by URL userinfo.

// Config keys and sink header names that hold credentials.
const SECRET_KEY = /^(secrets?|token|password)$|authorization|api[-_]?key|cookie/i;
const MASK = "[redacted]";

function redactUrl(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/)([^@/]+)@/i, (_m, scheme: string) => `${scheme}${MASK}@`);
}

/** A deep copy of `value` with secrets masked. */
export function redact(value: unknown, key?: string): unknown {
  if (key !== undefined && SECRET_KEY.test(key)) {
    return Array.isArray(value) ? value.map(() => MASK) : MASK;
  }
  if (typeof value === "string") return redactUrl(value);
  if (Array.isArray(value))
    return value.map((v) => (typeof v === "string" && key === "tokens" ? MASK : redact(v)));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redact(v, k)]));
  }
  return value;
}

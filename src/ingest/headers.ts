// Which request headers a hook record keeps: everything the provider sent except hop-by-hop headers,
// which describe one connection, not the hook.

const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "content-length",
]);

/** The header names a `Connection` value lists (they are hop-by-hop too). */
function connectionNamed(value: string | null | undefined): Set<string> {
  return new Set(
    (value ?? "")
      .split(",")
      .map((h) => h.trim().toLowerCase())
      .filter((h) => h.length > 0),
  );
}

/** `keptRawHeaders` of a fetch Headers object (whose values are already joined and trimmed). */
export function keptHeaders(headers: Headers): Record<string, string> {
  const raw: string[] = [];
  headers.forEach((value, name) => void raw.push(name, value));
  return keptRawHeaders(raw);
}

const isHttpWhitespace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/**
 * `value` without leading and trailing HTTP whitespace (tab, LF, CR, space), as the fetch Headers class
 * strips it. A loop from each end rather than `/^[\t\n\r ]+|[\t\n\r ]+$/g`, which backtracks: on
 * `a` + 16,000 spaces + `a` that regex held the event loop for ~100 ms, before any signature check.
 */
export function trimHttpWhitespace(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && isHttpWhitespace(value.charCodeAt(start))) start++;
  while (end > start && isHttpWhitespace(value.charCodeAt(end - 1))) end--;
  return start === 0 && end === value.length ? value : value.slice(start, end);
}

/**
 * The lower-cased header map a hook keeps, without hop-by-hop headers (and those named in
 * `Connection`), from the raw name/value list Node's HTTP parser keeps (IncomingMessage#rawHeaders).
 * Ingest reads that list rather than build a fetch Headers object per request, which validates, copies
 * and sorts every header (skipping it saves the API process about 2 KB of its ~54 KB of garbage per
 * hook). The result is what Headers would give, key order included: names lower-cased and sorted,
 * values trimmed, repeats joined by ", " ("; " for cookie), the last set-cookie kept.
 */
export function keptRawHeaders(raw: readonly string[]): Record<string, string> {
  const combined = new Map<string, string>();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    if (name.startsWith(":")) continue; // an HTTP/2 pseudo-header is not a header
    const value = trimHttpWhitespace(raw[i + 1] as string);
    const prev = combined.get(name);
    combined.set(
      name,
      prev === undefined || name === "set-cookie"
        ? value
        : `${prev}${name === "cookie" ? "; " : ", "}${value}`,
    );
  }
  const named = connectionNamed(combined.get("connection"));
  const out: Record<string, string> = {};
  for (const name of [...combined.keys()].sort()) {
    if (!HOP_BY_HOP.has(name) && !named.has(name)) out[name] = combined.get(name) as string;
  }
  return out;
}

/**
 * The credentials a provider used to reach the gateway (Proxy-Authorization is hop-by-hop, never kept):
 * they are not the hook's, and go on to sinks only from a source with `forward_credentials: true`.
 */
const CREDENTIALS = ["authorization", "cookie"] as const;

/** `headers` without the inbound credentials (the same object when it has none). */
export function withoutCredentials(
  headers: Readonly<Record<string, string>>,
): Readonly<Record<string, string>> {
  if (!CREDENTIALS.some((name) => Object.hasOwn(headers, name))) return headers;
  const kept = { ...headers };
  for (const name of CREDENTIALS) delete kept[name];
  return kept;
}

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

/** Lower-cased header map without hop-by-hop headers (and those named in `Connection`). */
export function keptHeaders(headers: Headers): Record<string, string> {
  const named = new Set(
    (headers.get("connection") ?? "")
      .split(",")
      .map((h) => h.trim().toLowerCase())
      .filter((h) => h.length > 0),
  );
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (!HOP_BY_HOP.has(name) && !named.has(name)) out[name] = value;
  });
  return out;
}

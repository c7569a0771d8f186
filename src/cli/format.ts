// Plain-text rendering for the CLI: aligned tables and key/value blocks that read well in a terminal
// and paste cleanly into a ticket. Pure functions, so they are unit-tested without a server.

/** Shorten to `max` characters with an ellipsis, on one line. */
export function truncate(value: string, max: number): string {
  const flat = value.replace(/\s+/g, " ");
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(0, max - 1))}…`;
}

/** Columns padded to their widest cell; the last column is not padded. */
export function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(headers), ...rows.map(line)].join("\n");
}

/** What `dlq list` shows of an entry (the API's JSON shape, the same for both directions). */
export interface DlqEntryJson {
  readonly id: string;
  /** Absent from servers older than this CLI; then `sink` tells the direction. */
  readonly direction?: "inbound" | "outbound";
  readonly target?: string;
  readonly source?: string;
  readonly event_type?: string;
  readonly tenant?: string;
  readonly sink?: string;
  readonly endpoint?: string;
  readonly error_class: string;
  readonly reason: string;
  readonly attempts: number;
  readonly dead_at: string;
  readonly replay_id?: string;
}

export function dlqTable(entries: readonly DlqEntryJson[]): string {
  if (entries.length === 0) return "no dead deliveries match";
  return table(
    ["DEAD AT", "ID", "DIRECTION", "SOURCE/TYPE", "TARGET", "TENANT", "CLASS", "ATTEMPTS", "REASON"],
    entries.map((e) => {
      const inbound = (e.direction ?? (e.sink !== undefined ? "inbound" : "outbound")) === "inbound";
      return [
        e.dead_at,
        e.id,
        inbound ? "inbound" : "outbound",
        (inbound ? e.source : e.event_type) ?? "-",
        e.target ?? e.sink ?? e.endpoint ?? "-",
        e.tenant ?? "-",
        e.error_class,
        String(e.attempts),
        truncate(e.reason, 60),
      ];
    }),
  );
}

export interface SinkStateJson {
  readonly state: string;
  readonly attempts: number;
  readonly last_error?: string;
  readonly error_class?: string;
  readonly next_attempt_at?: string;
  readonly delivered_at?: string;
  readonly last_attempt_at?: string;
  readonly replay_id?: string;
}

export interface HookJson {
  readonly id: string;
  readonly source: string;
  readonly tenant?: string;
  readonly received_at: string;
  readonly size: number;
  readonly content_type?: string;
  readonly sha256: string;
  readonly idempotency_key: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly sinks: Readonly<Record<string, SinkStateJson>>;
  readonly body_base64?: string;
}

function whenOf(s: SinkStateJson): string {
  if (s.delivered_at) return `delivered ${s.delivered_at}`;
  if (s.next_attempt_at) return `next attempt ${s.next_attempt_at}`;
  if (s.last_attempt_at) return `last attempt ${s.last_attempt_at}`;
  return "-";
}

/** The body as text when it is printable UTF-8, else base64 (marked). */
export function bodyText(base64: string): string {
  const bytes = Buffer.from(base64, "base64");
  const text = bytes.toString("utf8");
  // eslint-disable-next-line no-control-regex
  const printable = Buffer.from(text, "utf8").equals(bytes) && !/[\u0000-\u0008\u000e-\u001f]/.test(text);
  return printable ? text : `(binary, base64) ${base64}`;
}

export function hookDetails(h: HookJson): string {
  const meta = table(
    ["FIELD", "VALUE"],
    [
      ["id", h.id],
      ["source", h.source],
      ["tenant", h.tenant ?? "-"],
      ["received_at", h.received_at],
      ["size", `${h.size} bytes`],
      ["content_type", h.content_type ?? "-"],
      ["sha256", h.sha256],
      ["idempotency_key", h.idempotency_key],
    ],
  )
    .split("\n")
    .slice(1)
    .join("\n");
  const sinks = table(
    ["SINK", "STATE", "ATTEMPTS", "WHEN", "LAST ERROR"],
    Object.entries(h.sinks).map(([name, s]) => [
      name,
      s.replay_id ? `${s.state} (replay ${s.replay_id})` : s.state,
      String(s.attempts),
      whenOf(s),
      s.last_error ? truncate(`${s.last_error}${s.error_class ? ` [${s.error_class}]` : ""}`, 70) : "-",
    ]),
  );
  const headers = Object.entries(h.headers)
    .map(([k, v]) => `  ${k}: ${truncate(v, 100)}`)
    .join("\n");
  const parts = [meta, "", sinks, "", `headers:\n${headers || "  (none)"}`];
  if (h.body_base64 !== undefined) parts.push("", "body:", bodyText(h.body_base64));
  return parts.join("\n");
}

export interface ReplayJson {
  readonly id: string;
  readonly state: string;
  readonly matched: number;
  readonly moved: number;
  readonly failed: number;
  readonly total_estimate: number;
}

export function replaySummary(r: ReplayJson, seconds: number): string {
  return `replay ${r.id} ${r.state}: moved ${r.moved}, failed ${r.failed} of ${r.matched} matched, in ${seconds.toFixed(1)} s`;
}

// Plain-text rendering of the incident commands (replays, endpoints, breakers): the same aligned
// tables as format.ts, pure functions unit-tested without a server.
import { type ReplayJson, table, truncate } from "./format.ts";

/** A replay as `GET /v1/replays` lists it. */
export interface ReplayListJson extends ReplayJson {
  readonly tenant?: string;
  readonly filter: Readonly<Record<string, unknown>>;
  readonly rate_per_s: number;
  readonly created_at: string;
  readonly finished_at?: string;
}

/** `source=github since=…`, the filter as one cell. */
export function filterText(filter: Readonly<Record<string, unknown>>): string {
  const parts = Object.entries(filter)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => (Array.isArray(v) ? `${k}=[${v.length}]` : `${k}=${String(v)}`));
  return parts.length === 0 ? "(everything)" : parts.join(" ");
}

export function replayTable(replays: readonly ReplayListJson[]): string {
  if (replays.length === 0) return "no replays match";
  return table(
    ["CREATED", "ID", "STATE", "MOVED", "FAILED", "RATE/S", "TENANT", "FILTER"],
    replays.map((r) => [
      r.created_at,
      r.id,
      r.state,
      `${r.moved}/${r.matched}`,
      String(r.failed),
      String(r.rate_per_s),
      r.tenant ?? "-",
      truncate(filterText(r.filter), 60),
    ]),
  );
}

export function replayLine(r: ReplayJson): string {
  return `replay ${r.id} ${r.state}: moved ${r.moved}, failed ${r.failed} of ${r.matched} matched so far`;
}

/** An endpoint as `GET /v1/endpoints` lists it. */
export interface EndpointJson {
  readonly id: string;
  readonly url: string;
  readonly tenant?: string;
  readonly event_types: readonly string[];
  readonly disabled: boolean;
  readonly disabled_reason?: string;
  readonly failing_since?: string;
  readonly created_at: string;
}

function endpointState(e: EndpointJson): string {
  if (e.disabled) return `disabled${e.disabled_reason ? ` (${e.disabled_reason})` : ""}`;
  return e.failing_since ? `failing since ${e.failing_since}` : "enabled";
}

export function endpointTable(endpoints: readonly EndpointJson[]): string {
  if (endpoints.length === 0) return "no endpoints";
  return table(
    ["ID", "TENANT", "URL", "EVENT TYPES", "STATE"],
    endpoints.map((e) => [
      e.id,
      e.tenant ?? "-",
      truncate(e.url, 60),
      truncate(e.event_types.join(","), 40),
      truncate(endpointState(e), 60),
    ]),
  );
}

/** `GET /v1/breakers`. */
export interface BreakersJson {
  readonly sinks: readonly {
    readonly sink: string;
    readonly state: string;
    readonly open_until: string | null;
    readonly probe_until: string | null;
  }[];
  readonly endpoints: readonly {
    readonly endpoint: string;
    readonly tenant: string | null;
    readonly url: string;
    readonly state: string;
    readonly open_until: string | null;
  }[];
  readonly endpoints_checked: number;
  readonly endpoints_truncated: boolean;
}

export function breakersText(b: BreakersJson): string {
  const parts: string[] = [];
  if (b.sinks.length > 0)
    parts.push(
      table(
        ["SINK", "STATE", "OPEN UNTIL", "PROBE UNTIL"],
        b.sinks.map((s) => [s.sink, s.state, s.open_until ?? "-", s.probe_until ?? "-"]),
      ),
    );
  const checked = `${b.endpoints_checked} endpoint${b.endpoints_checked === 1 ? "" : "s"} checked${
    b.endpoints_truncated ? ", more not checked" : ""
  }`;
  parts.push(
    b.endpoints.length === 0
      ? `no endpoint breaker is open (${checked})`
      : `${table(
          ["ENDPOINT", "TENANT", "STATE", "OPEN UNTIL", "URL"],
          b.endpoints.map((e) => [
            e.endpoint,
            e.tenant ?? "-",
            e.state,
            e.open_until ?? "-",
            truncate(e.url, 60),
          ]),
        )}\n(${checked})`,
  );
  return parts.join("\n\n");
}

// The figures of a chaos run, one row per destination, computed from what the senders were answered
// (accepted = a 2xx), what the destinations received, and the ledger's view of what did not arrive.
// Lost is the one that must be 0: accepted, never received, and not dead-lettered either.
import type { DeliveryView, DrainOutcome, Expectation } from "./drain.ts";
import type { Injection } from "./faults.ts";
import type { SteadySender } from "./traffic.ts";

export interface Row {
  readonly destination: string;
  /** Items the sender got a 2xx for. */
  readonly accepted: number;
  /** Accepted items received at least once. */
  readonly delivered: number;
  /** Arrivals beyond the first of an item. */
  readonly duplicates: number;
  /** Accepted items never received whose delivery is dead (in the DLQ). */
  readonly dead: number;
  /** Accepted items neither received nor dead. */
  readonly lost: number;
  /** Items received that the sender never got a 2xx for (the answer was lost; not a failure). */
  readonly unaccepted: number;
  /** Items received under more than one Switchyard record (a dedup miss). */
  readonly severalRecords: number;
}

export function rowOf(e: Expectation, drained: DrainOutcome): Row {
  let delivered = 0;
  for (const key of e.accepted.keys()) if (e.arrivals.has(key)) delivered += 1;
  let unaccepted = 0;
  for (const key of e.arrivals.keys()) if (!e.accepted.has(key)) unaccepted += 1;
  const dead = drained.dead.get(e.label)?.size ?? 0;
  return {
    destination: e.label,
    accepted: e.accepted.size,
    delivered,
    duplicates: e.arrivals.duplicates,
    dead,
    lost: e.accepted.size - delivered - dead,
    unaccepted,
    severalRecords: e.arrivals.keysWithSeveralRecords,
  };
}

const pct = (part: number, whole: number): string =>
  whole === 0 ? "-" : `${((100 * part) / whole).toFixed(2)}%`;

/** The table, aligned for a terminal (and for pasting in a Markdown code block). */
export function formatTable(rows: readonly Row[]): string {
  const head = [
    "destination",
    "accepted",
    "delivered",
    "duplicates",
    "dup rate",
    "dead",
    "lost",
    "not accepted",
  ];
  const body = rows.map((r) => [
    r.destination,
    String(r.accepted),
    String(r.delivered),
    String(r.duplicates),
    pct(r.duplicates, r.delivered + r.unaccepted),
    String(r.dead),
    String(r.lost),
    String(r.unaccepted),
  ]);
  return aligned(head, body);
}

/** Columns padded to their widest cell, the first left-aligned, the rest right-aligned, under a rule. */
function aligned(head: readonly string[], body: readonly (readonly string[])[]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: readonly string[]): string =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  return [line(head), line(widths.map((w) => "-".repeat(w))), ...body.map(line)].join("\n");
}

/**
 * What each sender was answered, per item: sent, accepted (a 2xx, perhaps after refused tries), never
 * accepted (every try refused: not in the table's accepted, so not counted as lost either); and per try:
 * refused tries, those answered 503 (Redis unavailable, or a replica that did not acknowledge in time).
 */
export function formatSenders(senders: ReadonlyMap<string, SteadySender>): string {
  const head = ["sender", "sent", "accepted", "after refusals", "never accepted", "refused tries", "503"];
  const body = [...senders].map(([name, s]) => [
    name,
    String(s.started),
    String(s.acceptedItems),
    String(s.acceptedAfterRefusal),
    String(s.givenUp.length),
    String([...s.refusals.values()].reduce((a, b) => a + b, 0)),
    String(s.refusals.get("503") ?? 0),
  ]);
  return aligned(head, body);
}

/** Up to `max` entries of a key → view map, as `key: state (attempts, last error)` lines. */
export function describeViews(views: ReadonlyMap<string, DeliveryView>, max = 10): string[] {
  const lines = [...views].slice(0, max).map(([key, v]) => {
    const extra = [v.attempts === undefined ? "" : `${v.attempts} attempts`, v.error_class, v.last_error];
    return `  ${key}: ${v.state} (${extra.filter(Boolean).join(", ")})`;
  });
  if (views.size > max) lines.push(`  … and ${views.size - max} more`);
  return lines;
}

/** How often each fault fired, and any injection that failed. */
export function faultSummary(injections: readonly Injection[]): string[] {
  const counts = new Map<string, number>();
  for (const i of injections) counts.set(i.fault, (counts.get(i.fault) ?? 0) + 1);
  const lines = [...counts].map(([fault, n]) => `  ${fault}: ${n}×`);
  for (const i of injections.filter((x) => x.error !== undefined))
    lines.push(`  ${i.fault} at ${i.atMs} ms FAILED: ${i.error}`);
  return lines;
}

/** Dead deliveries grouped by their error class and reason, most frequent first. */
export function deadReasons(views: ReadonlyMap<string, DeliveryView>): string[] {
  const counts = new Map<string, number>();
  for (const v of views.values()) {
    const reason = `${v.error_class ?? "?"}: ${(v.last_error ?? "").slice(0, 100)}`;
    counts.set(reason, (counts.get(reason) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]).map(([reason, n]) => `  ${n}× ${reason}`);
}

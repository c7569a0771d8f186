// The end of a chaos run: with the faults over, wait until every accepted item has arrived at its
// destination or its delivery is dead in the ledger, or a deadline passes. What has not arrived is
// looked up through the admin API (GET /v1/hooks/:id, GET /v1/events/:id/deliveries), the operator's
// view, so a row the ledger calls delivered that the destination never saw is caught, not trusted.
import type { Arrivals } from "./arrivals.ts";

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A delivery as the admin API shows it; `missing` when the API had no row for it. */
export interface DeliveryView {
  readonly state: "pending" | "retrying" | "delivered" | "dead" | "missing" | "unreadable";
  readonly attempts?: number;
  readonly last_error?: string;
  readonly error_class?: string;
}

/** One destination's expected items: what was accepted for it, what it received, how to ask the ledger. */
export interface Expectation {
  readonly label: string;
  /** key (the sender's id) → Switchyard record id (hook id, event id). */
  readonly accepted: ReadonlyMap<string, string>;
  readonly arrivals: Arrivals;
  view(key: string, recordId: string): Promise<DeliveryView>;
}

export interface DrainOutcome {
  /** Per expectation label: accepted keys that never arrived and are dead, with the ledger's view. */
  readonly dead: ReadonlyMap<string, ReadonlyMap<string, DeliveryView>>;
  /** Per expectation label: accepted keys neither arrived nor dead at the deadline, with the last view. */
  readonly outstanding: ReadonlyMap<string, ReadonlyMap<string, DeliveryView>>;
  readonly tookMs: number;
  readonly drained: boolean;
}

/** Run `tasks` with at most `limit` at once. */
async function pooled<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>) {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/**
 * `{state: count}` over every expectation's outstanding deliveries, and when only a few are left, which
 * (a straggler holding up the drain is then named, for its logs).
 */
function progress(
  outstanding: ReadonlyMap<string, ReadonlyMap<string, DeliveryView>>,
  accepted: ReadonlyMap<string, ReadonlyMap<string, string>>,
): string {
  const states = new Map<string, number>();
  const few: string[] = [];
  for (const [label, views] of outstanding)
    for (const [key, v] of views) {
      states.set(v.state, (states.get(v.state) ?? 0) + 1);
      few.push(`${label}: ${key} (${accepted.get(label)?.get(key) ?? "?"})`);
    }
  const named = few.length <= 3 ? `: ${few.join("; ")}` : "";
  return `${JSON.stringify(Object.fromEntries(states))}${named}`;
}

export async function drain(
  expectations: readonly Expectation[],
  opts: {
    deadlineMs: number;
    pollMs?: number;
    concurrency?: number;
    /** Told, every ~5 s, how many deliveries are still outstanding and in which states. */
    onPoll?: (line: string) => void;
  },
): Promise<DrainOutcome> {
  const t0 = Date.now();
  const accepted = new Map(expectations.map((e) => [e.label, e.accepted]));
  const dead = new Map(expectations.map((e) => [e.label, new Map<string, DeliveryView>()]));
  let outstanding = new Map<string, Map<string, DeliveryView>>();
  let lastReport = t0;
  for (;;) {
    outstanding = new Map(expectations.map((e) => [e.label, new Map<string, DeliveryView>()]));
    const lookups: { e: Expectation; key: string; recordId: string }[] = [];
    for (const e of expectations) {
      for (const [key, recordId] of e.accepted) {
        if (!e.arrivals.has(key) && !dead.get(e.label)!.has(key)) lookups.push({ e, key, recordId });
      }
    }
    if (lookups.length === 0) return { dead, outstanding, tookMs: Date.now() - t0, drained: true };
    await pooled(lookups, opts.concurrency ?? 8, async ({ e, key, recordId }) => {
      const view = await e.view(key, recordId).catch((): DeliveryView => ({ state: "unreadable" }));
      // An arrival may have landed while the ledger was being asked.
      if (e.arrivals.has(key)) return;
      if (view.state === "dead") dead.get(e.label)!.set(key, view);
      else outstanding.get(e.label)!.set(key, view);
    });
    const left = [...outstanding.values()].reduce((n, m) => n + m.size, 0);
    if (opts.onPoll && Date.now() - lastReport >= 5000) {
      lastReport = Date.now();
      opts.onPoll(
        `  ${((Date.now() - t0) / 1000).toFixed(0)} s: ${left} outstanding ${progress(outstanding, accepted)}`,
      );
    }
    if (left === 0) return { dead, outstanding, tookMs: Date.now() - t0, drained: true };
    if (Date.now() - t0 > opts.deadlineMs)
      return { dead, outstanding, tookMs: Date.now() - t0, drained: false };
    await sleep(opts.pollMs ?? 1000);
  }
}

type Json = Record<string, unknown>;

/** Reads delivery states through the admin API. */
export class AdminReader {
  constructor(
    private readonly url: string,
    private readonly token: string,
  ) {}

  private async get(path: string): Promise<{ status: number; json: Json }> {
    const res = await fetch(`${this.url}${path}`, {
      headers: { authorization: `Bearer ${this.token}` },
      signal: AbortSignal.timeout(5000),
    });
    return { status: res.status, json: (await res.json().catch(() => ({}))) as Json };
  }

  /** The delivery of hook `hookId` to sink `sink`. */
  async hookDelivery(hookId: string, sink: string): Promise<DeliveryView> {
    const { status, json } = await this.get(`/v1/hooks/${hookId}`);
    if (status === 404) return { state: "missing" };
    if (status !== 200) return { state: "unreadable", last_error: `GET /v1/hooks: ${status}` };
    const row = (json.sinks as Record<string, DeliveryView> | undefined)?.[sink];
    return row ?? { state: "missing" };
  }

  /** The delivery of event `eventId` to endpoint `endpointId`. */
  async eventDelivery(eventId: string, endpointId: string): Promise<DeliveryView> {
    const { status, json } = await this.get(`/v1/events/${eventId}/deliveries`);
    if (status === 404) return { state: "missing" };
    if (status !== 200) return { state: "unreadable", last_error: `GET deliveries: ${status}` };
    const rows = (json.data as (DeliveryView & { endpoint_id?: string })[] | undefined) ?? [];
    return rows.find((r) => r.endpoint_id === endpointId) ?? { state: "missing" };
  }
}

// Finding what a replay moves next: walk its DLQ index (oldest first, from the durable cursor, only up
// to the snapshot) or its explicit list of ids, and keep the entries that pass the filter. Each call
// reads a bounded number of entries, so a sparse filter never stalls pause/cancel checks.
import type { DlqEntry, DlqFilter, IndexPosition } from "../domain/dlq.ts";
import { matchesFilter, rangeOf } from "../domain/dlq.ts";
import type { DeliveryId } from "../domain/ids.ts";
import type { ReplayCursor } from "../domain/replay.ts";
import type { DlqStore } from "../store/dlq-store.ts";
import type { ReplayRecord } from "../store/replay-store.ts";

export interface Batch {
  /** Matching entries, oldest first, at most `want`. */
  readonly entries: readonly DlqEntry[];
  /** The cursor once these entries (and the non-matching ones between them) are done. */
  readonly end: ReplayCursor | null;
  /** Nothing is left after `end`. */
  readonly exhausted: boolean;
}

type Scope = Pick<ReplayRecord, "filter" | "tenant" | "created_at" | "index" | "targets">;

/** The DLQ filter a replay applies, tenant included. */
export function dlqFilterOf(r: Pick<ReplayRecord, "filter" | "tenant">): DlqFilter {
  const { source, sink, endpoint, error_class, since, until } = r.filter;
  return {
    source,
    sink,
    endpoint,
    error_class,
    since,
    until,
    ...(r.tenant !== undefined ? { tenant: r.tenant } : {}),
  };
}

/** Is `e` part of the replay's snapshot and filter? */
export function inScope(e: DlqEntry | undefined, r: Scope): e is DlqEntry {
  return e !== undefined && e.dead_at <= r.created_at && matchesFilter(e, dlqFilterOf(r));
}

/** The next up-to-`want` entries after `cursor`, reading at most about `maxScan` candidates. */
export async function nextBatch(
  dlq: DlqStore,
  r: Scope,
  cursor: ReplayCursor | null,
  want: number,
  maxScan = 2000,
): Promise<Batch> {
  return r.targets !== undefined
    ? nextFromList(dlq, r, r.targets, cursor?.kind === "list" ? cursor.at : 0, want, maxScan)
    : nextFromIndex(dlq, r, cursor?.kind === "index" ? cursor : undefined, want, maxScan);
}

async function nextFromIndex(
  dlq: DlqStore,
  r: Scope,
  from: IndexPosition | undefined,
  want: number,
  maxScan: number,
): Promise<Batch> {
  const index = r.index ?? "all";
  const range = rangeOf(dlqFilterOf(r), r.created_at);
  const entries: DlqEntry[] = [];
  let after = from;
  let scanned = 0;
  const end = (): ReplayCursor | null => (after ? { kind: "index", score: after.score, id: after.id } : null);
  for (;;) {
    const count = Math.min(500, Math.max(50, (want - entries.length) * 2));
    const { members, more } = await dlq.slice(index, "asc", range, after, count);
    const loaded = await dlq.getMany(members.map((m) => m.id as DeliveryId));
    for (let i = 0; i < members.length; i++) {
      if (entries.length === want) return { entries, end: end(), exhausted: false };
      after = members[i] as IndexPosition;
      scanned += 1;
      const entry = loaded[i];
      if (inScope(entry, r)) entries.push(entry);
    }
    if (!more) return { entries, end: end(), exhausted: true };
    if (entries.length === want || scanned >= maxScan) return { entries, end: end(), exhausted: false };
  }
}

async function nextFromList(
  dlq: DlqStore,
  r: Scope,
  targets: readonly string[],
  from: number,
  want: number,
  maxScan: number,
): Promise<Batch> {
  const entries: DlqEntry[] = [];
  let at = from;
  while (at < targets.length && entries.length < want && at - from < maxScan) {
    const ids = targets.slice(at, at + Math.min(500, Math.max(50, (want - entries.length) * 2)));
    const loaded = await dlq.getMany(ids as DeliveryId[]);
    for (const entry of loaded) {
      if (entries.length === want) break;
      at += 1;
      if (inScope(entry, r)) entries.push(entry);
    }
  }
  return { entries, end: { kind: "list", at }, exhausted: at >= targets.length };
}

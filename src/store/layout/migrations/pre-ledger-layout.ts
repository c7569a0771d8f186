// Layout 0, the pre-ledger key plan, as the release before the delivery ledger wrote it: what the 0 -> 1
// migration reads. Nothing here imports that release's code; its shapes are restated:
//   {p}:hook:<hook id>            hash: meta (JSON: source, tenant, received_at, content_type, sha256,
//                                 dedup_key, idempotency_key, sinks), hdr (JSON headers), body (bytes),
//                                 s:<sink> (JSON delivery state, absent while pending); expires
//                                 retention_s after receipt
//   {p}:dedup:<tenant|->:<source>:<dedup key>   string: first hook id, with the source's dedup TTL
//   {p}:pending-enqueue           zset: hook ids whose jobs were not yet known to exist
//   {p}:recovery:lock             string: the stale-recovery tick lock
//   {p}:dlq:all, {p}:dlq:by-<field>:<value>     zsets of job ids (`<hook id>-<sink>`) by dead_at
//   {p}:dlq:entry:<job id>        hash: a dead delivery (error_class, reason, attempts, times); expires
//                                 retention_s after its death
//   {p}:replay:<replay id>        hash: one replay's filter and progress
//   {p}:<queue>:…                 BullMQ's keys of the queues sink-<sink> (job id `<hook id>-<sink>`,
//                                 data {hookId, sink, replayId?}), maintenance and replays
// where {p} is `{<prefix>}`. The hook record is the truth of each delivery (its s:<sink> state, and
// the DLQ entry for a dead one); the jobs only say that an attempt is due.
import type { ErrorClass } from "../../../domain/error-class.ts";
import { isId } from "../../../domain/ids.ts";
import type { Keys } from "../../keys.ts";

/** A delivery's state as the pre-ledger workers wrote it on the record (field `s:<sink>`). */
export interface PreLedgerSinkState {
  readonly state: "pending" | "delivered" | "retrying" | "dead";
  readonly attempts: number;
  readonly first_attempt_at?: number;
  readonly last_attempt_at?: number;
  readonly next_attempt_at?: number;
  readonly delivered_at?: number;
  readonly last_error?: string;
  readonly error_class?: ErrorClass;
  readonly replay_id?: string;
}

/** The record's `meta` field. */
export interface PreLedgerMeta {
  readonly source: string;
  readonly tenant?: string;
  readonly received_at: number;
  readonly content_type?: string;
  readonly sha256: string;
  readonly dedup_key: string;
  readonly idempotency_key?: string;
  readonly sinks: readonly string[];
}

/** A DLQ entry's fields (all strings in Redis). */
export interface PreLedgerDlqEntry {
  readonly error_class?: ErrorClass;
  readonly reason?: string;
  readonly attempts?: number;
  readonly first_attempt_at?: number;
  readonly last_attempt_at?: number;
  readonly dead_at?: number;
}

/** The kinds of key the pre-ledger release wrote, by what follows `{<prefix>}:`. */
export type PreLedgerKeyKind = "hook" | "dedup" | "dlq" | "replay" | "queue" | "lock" | "pending";

const QUEUE = /^(sink-[^:]+|maintenance|replays):/;

/** What a key under `{<prefix>}:` is, or undefined when the pre-ledger release never wrote one like it. */
export function preLedgerKindOf(base: string, key: string): PreLedgerKeyKind | undefined {
  if (!key.startsWith(`${base}:`)) return undefined;
  const rest = key.slice(base.length + 1);
  if (rest.startsWith("hook:")) return isId("hk", rest.slice("hook:".length)) ? "hook" : undefined;
  if (rest.startsWith("dedup:")) return "dedup";
  if (rest.startsWith("dlq:")) return "dlq";
  if (rest.startsWith("replay:")) return "replay";
  if (rest === "pending-enqueue") return "pending";
  if (rest === "recovery:lock") return "lock";
  if (QUEUE.test(rest)) return "queue";
  return undefined;
}

/** The pre-ledger key builder of one prefix (only what the migration reads by name). */
export class PreLedgerKeys {
  /** `{<prefix>}`: the one hash tag of every pre-ledger key. */
  readonly base: string;

  constructor(keys: Keys) {
    this.base = `{${keys.prefix}}`;
  }

  hook(id: string): string {
    return `${this.base}:hook:${id}`;
  }

  /** The hook id a hook key names. */
  hookIdOf(key: string): string {
    return key.slice(`${this.base}:hook:`.length);
  }

  /** The dedup identity a dedup key names (`<tenant|->:<source>:<dedup key>`, the ledger's identity). */
  dedupIdentityOf(key: string): string {
    return key.slice(`${this.base}:dedup:`.length);
  }

  dlqEntry(hookId: string, sink: string): string {
    return `${this.base}:dlq:entry:${hookId}-${sink}`;
  }

  /** The hash of a delivery's BullMQ job (job id `<hook id>-<sink>` in queue `sink-<sink>`). */
  job(hookId: string, sink: string): string {
    return `${this.base}:sink-${sink}:${hookId}-${sink}`;
  }

  /** The active list of a sink's queue (the jobs taken by a worker). */
  active(sink: string): string {
    return `${this.base}:sink-${sink}:active`;
  }

  /** The failed set of a sink's queue (the dead deliveries' jobs). */
  failed(sink: string): string {
    return `${this.base}:sink-${sink}:failed`;
  }
}

const num = (v: string | undefined): number | undefined =>
  v === undefined || v === "" || Number.isNaN(Number(v)) ? undefined : Number(v);

export function parseDlqEntry(raw: Record<string, string>): PreLedgerDlqEntry | undefined {
  if (raw.id === undefined) return undefined;
  return {
    error_class: raw.error_class as ErrorClass | undefined,
    reason: raw.reason,
    attempts: num(raw.attempts),
    first_attempt_at: num(raw.first_attempt_at),
    last_attempt_at: num(raw.last_attempt_at),
    dead_at: num(raw.dead_at),
  };
}

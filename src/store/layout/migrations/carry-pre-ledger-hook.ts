// One pre-ledger hook carried into the ledger (layout 0 -> 1): what its deliveries become (a row per
// sink: pending, retrying, delivered or dead, attempts and times kept) and the writes that make them,
// its record and rows in one script call, then a job for each live row. Every part is idempotent, so
// a run interrupted anywhere and run again neither loses a delivery nor makes one twice.
import type { ErrorClass } from "../../../domain/error-class.ts";
import { type DeliveryId, type HookId, bucketOf } from "../../../domain/ids.ts";
import { sinkDeliveryId } from "../../../domain/hook.ts";
import { targetKey } from "../../../domain/delivery.ts";
import { dlqIndexKeys } from "../../dlq-index.ts";
import type { Keys } from "../../keys.ts";
import { LuaScript } from "../../lua-script.ts";
import type { LayoutSettings } from "../migration.ts";
import {
  type PreLedgerDlqEntry,
  type PreLedgerKeys,
  type PreLedgerMeta,
  type PreLedgerSinkState,
  parseDlqEntry,
} from "./pre-ledger-layout.ts";

const carryHook = new LuaScript("carry-pre-ledger-hook-n.lua", "n");

/** A pre-ledger hook as read from Redis. */
export interface PreLedgerHook {
  readonly id: HookId;
  readonly meta: PreLedgerMeta;
  readonly hdr: Buffer | undefined;
  readonly body: Buffer;
  /** Per sink: its `s:<sink>` state (undefined: never attempted) and its DLQ entry, if any. */
  readonly sinks: readonly {
    readonly sink: string;
    readonly state: PreLedgerSinkState | undefined;
    readonly dead: PreLedgerDlqEntry | undefined;
    /** The DLQ entry's time to live, ms (≤ 0: none or no entry). */
    readonly deadTtlMs: number;
    /**
     * A dead delivery whose job was moved out of the failed set again (a replay, or a retry from Bull
     * Board): it was due once more, its DLQ entry kept until it succeeded.
     */
    readonly requeued: boolean;
  }[];
  /** The record's time to live, ms (≤ 0: none). */
  readonly ttlMs: number;
}

export type CarriedState = "pending" | "retrying" | "delivered" | "dead";

/** One delivery as the ledger will hold it. */
export interface CarriedRow {
  readonly id: DeliveryId;
  readonly sink: string;
  readonly state: CarriedState;
  readonly fields: Readonly<Record<string, string | number>>;
  /** Live rows: the watch score (when recovery looks at it if nothing else does). */
  readonly watchScore?: number;
  /** Final rows: how long the ledger keeps them, ms. */
  readonly ttlMs?: number;
  /** Dead rows: their DLQ index keys, scored by dead_at. */
  readonly dlqIndexKeys: readonly string[];
  readonly deadAt?: number;
  /** Live rows: when their job may run (a retry waits for its time). */
  readonly runAt?: number;
}

const REASON_UNKNOWN = "dead-lettered before the upgrade to the delivery ledger";

/** The rows `hook`'s deliveries become at `now`. Pure. */
export function carriedRows(
  keys: Keys,
  hook: PreLedgerHook,
  now: number,
  settings: LayoutSettings,
): CarriedRow[] {
  const { meta } = hook;
  const keepMs = (ttl: number): number => (ttl > 0 ? ttl : settings.retentionS * 1000);
  return hook.sinks.map(({ sink, state, dead, deadTtlMs, requeued }) => {
    const id = sinkDeliveryId(hook.id, sink);
    const identity: Record<string, string | number> = {
      p: hook.id,
      t: targetKey({ kind: "sink", name: sink }),
      f: 0,
      c: meta.received_at,
      s: meta.source,
    };
    if (meta.tenant !== undefined) identity.tn = meta.tenant;
    // The record's state is the truth; the DLQ entry adds a death's details. (After a pre-ledger
    // replay the entry stayed until a success, beside a state that had moved on.)
    const died = state?.state === "dead" || (state === undefined && dead !== undefined);
    const death = died ? dead : undefined;
    const base: Record<string, string | number> = {
      ...identity,
      a: death?.attempts ?? state?.attempts ?? 0,
    };
    const first = death?.first_attempt_at ?? state?.first_attempt_at;
    const last = death?.last_attempt_at ?? state?.last_attempt_at;
    if (first !== undefined) base.fa = first;
    if (last !== undefined) base.la = last;
    if (state?.last_error !== undefined) base.le = state.last_error;
    if (state?.error_class !== undefined) base.ec = state.error_class;
    // A dead delivery whose job was requeued is pending again with a fresh budget, as a ledger replay
    // leaves it.
    if (died && requeued)
      return {
        id,
        sink,
        state: "pending",
        fields: { ...identity, a: 0, st: "pending" },
        watchScore: now + settings.staleAfterMs,
        dlqIndexKeys: [],
        runAt: now,
      };
    const kind: CarriedState = died ? "dead" : (state?.state ?? "pending");
    switch (kind) {
      case "delivered":
        return {
          id,
          sink,
          state: kind,
          fields: { ...base, st: kind, da: state?.delivered_at ?? last ?? now },
          ttlMs: keepMs(hook.ttlMs),
          dlqIndexKeys: [],
        };
      case "dead": {
        const errorClass: ErrorClass = death?.error_class ?? state?.error_class ?? "permanent";
        const deadAt = death?.dead_at ?? last ?? now;
        return {
          id,
          sink,
          state: kind,
          fields: {
            ...base,
            st: kind,
            xa: deadAt,
            le: death?.reason ?? state?.last_error ?? REASON_UNKNOWN,
            ec: errorClass,
          },
          ttlMs: keepMs(Math.max(deadTtlMs, hook.ttlMs)),
          dlqIndexKeys: dlqIndexKeys(
            keys,
            { id, target: { kind: "sink", name: sink }, source: meta.source, tenant: meta.tenant },
            errorClass,
          ),
          deadAt,
        };
      }
      case "retrying": {
        const runAt = Math.max(now, state?.next_attempt_at ?? now);
        return {
          id,
          sink,
          state: kind,
          fields: { ...base, st: kind, na: runAt },
          watchScore: runAt + settings.staleAfterMs,
          dlqIndexKeys: [],
          runAt,
        };
      }
      case "pending":
        return {
          id,
          sink,
          state: kind,
          fields: { ...base, st: kind },
          watchScore: now + settings.staleAfterMs,
          dlqIndexKeys: [],
          runAt: now,
        };
    }
  });
}

/** The record and rows of `hook`, written once; resolves false when an earlier run wrote them. */
export async function writeCarriedHook(
  redis: Parameters<typeof carryHook.run>[0],
  keys: Keys,
  hook: PreLedgerHook,
  rows: readonly CarriedRow[],
): Promise<boolean> {
  const bucket = bucketOf(hook.id);
  const live = rows.filter((r) => r.watchScore !== undefined).length;
  // With nothing live the record goes with the last of its rows (a dead one's replay needs its body).
  const recordTtl = live > 0 ? 0 : Math.max(1, hook.ttlMs, ...rows.map((r) => r.ttlMs ?? 0));
  const { meta } = hook;
  // The ledger's record meta: the idempotency key is derived again from the other fields.
  const newMeta = {
    source: meta.source,
    tenant: meta.tenant,
    received_at: meta.received_at,
    content_type: meta.content_type,
    sha256: meta.sha256,
    dedup_key: meta.dedup_key,
    sinks: meta.sinks,
  };
  const keyList = [keys.hook(hook.id), keys.watch(bucket), keys.dlqIndexes(bucket)];
  const args: (string | number | Buffer)[] = [
    JSON.stringify(newMeta),
    hook.hdr ?? "{}",
    hook.body,
    live,
    recordTtl,
    rows.length,
  ];
  for (const row of rows) {
    keyList.push(keys.delivery(row.id), ...row.dlqIndexKeys);
    const pairs = Object.entries(row.fields);
    args.push(row.id, pairs.length, ...pairs.flat());
    args.push(row.watchScore ?? "", row.ttlMs ?? 0, row.dlqIndexKeys.length, row.deadAt ?? "");
  }
  return (await carryHook.run(redis, keyList, args)) === 1;
}

/** Read one pre-ledger hook (undefined when its record is gone or not one). */
export async function readPreLedgerHook(
  redis: Parameters<typeof carryHook.run>[0],
  old: PreLedgerKeys,
  id: HookId,
): Promise<PreLedgerHook | undefined> {
  const key = old.hook(id);
  const [raw, ttlMs] = await Promise.all([redis.hgetallBuffer(key), redis.pttl(key)]);
  if (raw.meta === undefined || raw.body === undefined) return undefined;
  const meta = JSON.parse(raw.meta.toString("utf8")) as PreLedgerMeta;
  const sinks = await Promise.all(
    meta.sinks.map(async (sink) => {
      const jobId = `${id}-${sink}`;
      const [entry, deadTtlMs, taken, failedAt, activeAt] = await Promise.all([
        redis.hgetall(old.dlqEntry(id, sink)),
        redis.pttl(old.dlqEntry(id, sink)),
        redis.hget(old.job(id, sink), "processedOn"),
        redis.zscore(old.failed(sink), jobId),
        redis.lpos(old.active(sink), jobId),
      ]);
      const stored = raw[`s:${sink}`];
      const state =
        stored === undefined ? undefined : (JSON.parse(stored.toString("utf8")) as PreLedgerSinkState);
      const dead = parseDlqEntry(entry);
      const jobExists = taken !== null || (await redis.exists(old.job(id, sink))) === 1;
      // That release recorded a death, then failed the job: killed in between, the job is still active,
      // taken before the death. Taken after it, it is a replay's attempt in flight.
      const diedAt = dead?.dead_at ?? state?.last_attempt_at;
      const failing = activeAt !== null && diedAt !== undefined && Number(taken ?? 0) <= diedAt;
      return { sink, state, dead, deadTtlMs, requeued: jobExists && failedAt === null && !failing };
    }),
  );
  return { id, meta, hdr: raw.hdr, body: raw.body, sinks, ttlMs };
}

// One delivery queue kept beside the ledger instead of as BullMQ jobs (docs/ledger-dispatch.md): a
// ready list, a sorted set of deliveries waiting for a time, a members set (each delivery queued once)
// and a doorbell list idle workers block on. All four carry the queue's hash tag: on a cluster aligned
// by bucket that is the bucket's, so the scripts that create or finish rows can queue them in the same
// call. What Redis holds here is what the queue knows; the row, as ever, holds the delivery's state.
import { BUCKETS, type DeliveryId, bucketOf } from "../../domain/ids.ts";
import { LuaScript } from "../../store/lua-script.ts";
import type { RedisClient } from "../../store/redis-client.ts";
import { type QueueEntry, decodeEntry, encodeEntry } from "./queue-entry.ts";

const pushScript = new LuaScript("push-entries-4.lua", 4);
// One tag on a cluster (a queue of one bucket names its bucket's watch set only); on one Redis the
// 16 buckets' watch sets beside the queue's own keys.
const popScript = new LuaScript("pop-entries-n.lua", "n", { oneSlotOnClusterOnly: true });
// The queue's keys and the row's watch set: one tag on a cluster, where the queue is its bucket's.
const parkScript = new LuaScript("park-entry-5.lua", 5, { oneSlotOnClusterOnly: true });
const discardScript = new LuaScript("discard-entries-4.lua", 4);

/** Due entries one pop moves from later to ready at most (the rest move on the next pop). */
const PROMOTE_PER_POP = 1000;

/** What one pop took, and when to look again if it emptied the ready list. */
export interface Popped {
  /** Oldest first. */
  readonly entries: readonly QueueEntry[];
  /** Fewer taken than asked: nothing is ready now, and the next push rings the doorbell. */
  readonly drained: boolean;
  /** When the earliest waiting entry is due (ms), if the pop drained the queue and one waits. */
  readonly nextDueAt: number | undefined;
}

/** Where the rows a queue hands out are watched by recovery, and for how long a taken row may go unclaimed. */
export interface QueueWatch {
  /** The buckets' watch sets (Keys#watch) in bucket order; for a queue of one bucket, that bucket's alone. */
  readonly keys: readonly string[];
  /** A taken row is due for recovery's look this long after the pop (its claim then sets its lease). */
  readonly holdMs: number;
}

export class LedgerQueue {
  /** ready, later, bell, members: the order every script takes them in. */
  readonly keys: readonly [string, string, string, string];
  private readonly popKeys: readonly string[];

  /** `prefix`: the queue's hash-tagged key prefix (Keys#queuePrefix of its name). */
  constructor(
    private readonly redis: RedisClient,
    prefix: string,
    readonly name: string,
    private readonly watch: QueueWatch,
  ) {
    if (watch.keys.length !== 1 && watch.keys.length !== BUCKETS)
      throw new RangeError(`a queue watches 1 or ${BUCKETS} buckets' rows, not ${watch.keys.length}`);
    const at = `${prefix}:lq:${name}`;
    this.keys = [`${at}:ready`, `${at}:later`, `${at}:bell`, `${at}:members`];
    this.popKeys = [...this.keys, ...watch.keys];
  }

  /** Queue deliveries to run now, each at most once however often it is pushed; resolves how many were new. */
  async push(entries: readonly QueueEntry[]): Promise<number> {
    if (entries.length === 0) return 0;
    const args = entries.flatMap((entry) => [entry.id, encodeEntry(entry)]);
    return Number(await pushScript.run(this.redis, this.keys, args));
  }

  /** Take deliveries off the queue that no worker took yet; resolves how many were. */
  async discard(entries: readonly QueueEntry[]): Promise<number> {
    if (entries.length === 0) return 0;
    const args = entries.flatMap((entry) => [entry.id, encodeEntry(entry)]);
    return Number(await discardScript.run(this.redis, this.keys, args));
  }

  /** Take up to `max` deliveries, due retries and waits first; each is due for recovery `holdMs` on. */
  async pop(max: number, now = Date.now()): Promise<Popped> {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`pop takes at least 1, got ${max}`);
    const reply = await popScript.run(this.redis, this.popKeys, [
      max,
      now,
      PROMOTE_PER_POP,
      this.watch.holdMs,
    ]);
    if (!Array.isArray(reply) || !Array.isArray(reply[0])) throw new Error("pop-entries: unexpected reply");
    const [raw, due] = reply as [string[], string];
    return {
      entries: raw.map(decodeEntry),
      drained: raw.length < max,
      nextDueAt: due === "" ? undefined : Number(due),
    };
  }

  /** Queue a delivery to run at `until` (ms), unless it is queued already; resolves whether it was queued now. */
  async park(entry: QueueEntry, until: number): Promise<boolean> {
    const watch =
      this.watch.keys.length === 1 ? this.watch.keys[0] : this.watch.keys[bucketOf(entry.id as DeliveryId)];
    const queued = await parkScript.run(
      this.redis,
      [...this.keys, watch ?? ""],
      [entry.id, encodeEntry(entry), Math.round(until), this.watch.holdMs],
    );
    return queued === 1;
  }

  /**
   * Block on `blocking` (a connection of its own: the wait holds it) until the doorbell rings or
   * `timeoutMs` passes; true when it rang. A pop is what tells whether there is work.
   */
  async waitForWork(blocking: RedisClient, timeoutMs: number): Promise<boolean> {
    const seconds = Math.max(0.01, timeoutMs / 1000).toFixed(3);
    return (await blocking.blpop(this.keys[2], seconds)) !== null;
  }

  /** Deliveries queued: ready to run, and waiting for their time. */
  async depth(): Promise<number> {
    const { ready, later } = await this.counts();
    return ready + later;
  }

  /** Deliveries ready to run, and waiting for their time, apart. */
  async counts(): Promise<{ readonly ready: number; readonly later: number }> {
    const [ready, later] = await Promise.all([this.redis.llen(this.keys[0]), this.redis.zcard(this.keys[1])]);
    return { ready, later };
  }
}

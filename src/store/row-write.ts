// Creating delivery rows, the TypeScript half (the Lua half is lua/ledger/create-row.lua, the one row
// writer of ingest's persist and fanout's publish): how a row, and its job where the script writes it
// too, is laid out in a script call's keys and arguments. Jobs go in the same call only where the
// queue is reachable from it: a single Redis, or a cluster whose queues are aligned with buckets (with
// queues by partition the job is another slot than the row, and the caller adds it behind the call),
// with the BullMQ release the job layout was verified for.
// Both directions share the one recovery protocol for the case without: a row is born in its bucket's
// watch set, and one whose job add failed is marked so recovery adds its job at once.
import type { DeliveryRow } from "../domain/delivery.ts";
import { targetKey } from "../domain/delivery.ts";
import { type DeliveryId, bucketOf } from "../domain/ids.ts";
import type { DeliveryStore } from "./delivery-store.ts";
import type { Keys } from "./keys.ts";
import { LuaScript } from "./lua-script.ts";
import { type RedisClient, isCluster } from "./redis-client.ts";

const markFailedScript = new LuaScript("mark-enqueue-failed-2.lua", 2);

/**
 * What a script needs to queue a row with it, as create-row.lua takes it by write mode: a BullMQ job
 * (mode 1: job hash, wait, paused, meta, id counter, active, events stream, marker; name, data, opts)
 * or a ledger queue entry (mode 2: ready, bell, members; the entry).
 */
export interface JobWrite {
  readonly keys: readonly string[];
  readonly args: readonly string[];
}

/** What a row's job is made from. */
export type RowRef = Pick<DeliveryRow, "id" | "parentId" | "target">;

/** Where and how a delivery's job is stored (the delivery queues know). */
export interface JobLayout {
  jobWrite(row: RowRef): JobWrite;
  /** How create-row.lua writes it: 1 a BullMQ job, 2 a ledger queue entry (0 is "the caller queues it"). */
  readonly writeMode: 1 | 2;
  /** Whether each job is in its row's hash tag, so a script on a cluster may write both. */
  readonly sharesRowSlot: boolean;
}

/** A store of the records rows deliver (hooks, events): it creates their rows, and their jobs where it can. */
export abstract class RowParentStore {
  /** How this store's scripts write jobs; undefined (a cluster whose jobs are elsewhere): the caller adds them. */
  protected readonly jobs: JobLayout | undefined;

  constructor(
    protected readonly redis: RedisClient,
    protected readonly keys: Keys,
    protected readonly deliveries: DeliveryStore,
    /** When given, rows' jobs are written by the call that creates the rows (on a cluster: if in their slot). */
    jobs?: JobLayout,
  ) {
    this.jobs = isCluster(redis) && !jobs?.sharesRowSlot ? undefined : jobs;
  }

  /** create-row.lua's write mode for this store's calls (0: the caller queues the rows). */
  protected get writeMode(): 0 | 1 | 2 {
    return this.jobs?.writeMode ?? 0;
  }

  /** Whether this store writes the rows' jobs itself (the caller then adds none). */
  get writesJobs(): boolean {
    return this.jobs !== undefined;
  }

  /**
   * A row whose job could not be added (the caller's add behind the script failed): recovery adds it on
   * its next tick instead of at the stale horizon (see mark-enqueue-failed-2.lua).
   */
  async markEnqueueFailed(id: DeliveryId, error: string, now = Date.now()): Promise<boolean> {
    const reply = await markFailedScript.run(
      this.redis,
      [this.keys.delivery(id), this.keys.watch(bucketOf(id))],
      [id, error.slice(0, 1024), now],
    );
    return reply === 1;
  }

  /** Append one row's keys and arguments, as create-row.lua reads them, with its job where written here. */
  protected pushRow(keys: string[], args: (string | number | Buffer)[], row: RowRef): void {
    keys.push(this.keys.delivery(row.id));
    args.push(row.id, targetKey(row.target));
    if (!this.jobs) return;
    const job = this.jobs.jobWrite(row);
    for (const key of job.keys) keys.push(key);
    for (const arg of job.args) args.push(arg);
  }
}

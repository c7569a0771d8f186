// Creating delivery rows, the TypeScript half (the Lua half is lua/ledger/create-row.lua, the one row
// writer of ingest's persist and fanout's publish): how a row, and its job where the script writes it
// too, is laid out in a script call's keys and arguments. Jobs go in the same call only where the
// queue is reachable from it: a single Redis (on a cluster the queue is another slot than the row, and
// the caller adds the job behind the call) with the BullMQ release the job layout was verified for.
import type { DeliveryRow } from "../domain/delivery.ts";
import { targetKey } from "../domain/delivery.ts";
import type { DeliveryStore } from "./delivery-store.ts";
import type { Keys } from "./keys.ts";
import { type RedisClient, isCluster } from "./redis-client.ts";

/** A delivery job's queue keys and stored fields, for a script to write it. */
export interface JobWrite {
  /** job hash, wait, paused, meta, id counter, active, events stream, marker */
  readonly keys: readonly string[];
  readonly name: string;
  readonly data: string;
  readonly opts: string;
}

/** What a row's job is made from. */
export type RowRef = Pick<DeliveryRow, "id" | "parentId" | "target">;

/** Where and how a delivery's job is stored (the delivery queues know). */
export interface JobLayout {
  jobWrite(row: RowRef): JobWrite;
}

/** A store of the records rows deliver (hooks, events): it creates their rows, and their jobs where it can. */
export abstract class RowParentStore {
  /** How this store's scripts write jobs; undefined (always on a cluster): the caller adds them. */
  protected readonly jobs: JobLayout | undefined;

  constructor(
    protected readonly redis: RedisClient,
    protected readonly keys: Keys,
    protected readonly deliveries: DeliveryStore,
    /** When given, on a single Redis, rows' jobs are written by the call that creates the rows. */
    jobs?: JobLayout,
  ) {
    this.jobs = isCluster(redis) ? undefined : jobs;
  }

  /** Whether this store writes the rows' jobs itself (the caller then adds none). */
  get writesJobs(): boolean {
    return this.jobs !== undefined;
  }

  /** Append one row's keys and arguments, as create-row.lua reads them, with its job where written here. */
  protected pushRow(keys: string[], args: (string | number | Buffer)[], row: RowRef): void {
    keys.push(this.keys.delivery(row.id));
    args.push(row.id, targetKey(row.target));
    if (!this.jobs) return;
    const job = this.jobs.jobWrite(row);
    for (const key of job.keys) keys.push(key);
    args.push(job.name, job.data, job.opts);
  }
}

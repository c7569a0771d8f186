// Creating delivery rows, the TypeScript half (the Lua half is lua/ledger/create-row.lua, the one row
// writer of ingest's persist and fanout's publish): how a row, and its job where the script writes it
// too, is laid out in a script call's keys and arguments. Jobs go in the same call only where the
// queue is reachable from it: a single Redis (on a cluster the queue is another slot than the row, and
// the caller adds the job behind the call) with the BullMQ release the job layout was verified for.
import type { DeliveryRow } from "../domain/delivery.ts";
import { targetKey } from "../domain/delivery.ts";
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

/** The layout a store's scripts write jobs with on `redis`: none on a cluster. */
export function jobsInScript(redis: RedisClient, jobs: JobLayout | undefined): JobLayout | undefined {
  return isCluster(redis) ? undefined : jobs;
}

/** Append one row's keys and arguments, as create-row.lua reads them, with its job when `jobs` is given. */
export function pushRowWrite(
  keys: string[],
  args: (string | number | Buffer)[],
  rowKey: string,
  row: RowRef,
  jobs: JobLayout | undefined,
): void {
  keys.push(rowKey);
  args.push(row.id, targetKey(row.target));
  if (!jobs) return;
  const job = jobs.jobWrite(row);
  for (const key of job.keys) keys.push(key);
  args.push(job.name, job.data, job.opts);
}

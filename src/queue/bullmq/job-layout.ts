// Ingest writes a hook's delivery jobs in the same script call as its record and rows, instead of one
// `Queue.add` per job behind it: one command per tick instead of one per hook, and no moment at which a
// row has no job (or a duplicate's job has no row). That means writing BullMQ's own storage for a
// standard job (hash, wait list, marker, events) as its add script does (add-standard-job.lua, included
// by the persist script), so it is done only for the BullMQ version a contract test compared it against
// (version.ts); with any other, jobs go through `Queue.add` as before.
import type { JobWrite } from "../../store/row-write.ts";
import { DELIVERY_JOB_NAME, type DeliveryJobData } from "../delivery-job.ts";

/** The keys a standard add touches, in the order add-standard-job.lua takes them after the job hash. */
const QUEUE_KEYS = ["wait", "paused", "meta", "id", "active", "events", "marker"] as const;

/** Every key of one queue the add names, from its base (`<prefix>:<queue>:`), computed once a queue. */
export function queueKeysOf(base: string): readonly string[] {
  return QUEUE_KEYS.map((key) => base + key);
}

/** A job with only its id set, as `Queue.add(name, data, { jobId })` stores it. */
export function standardJobWrite(
  base: string,
  queueKeys: readonly string[],
  jobId: string,
  data: DeliveryJobData,
): JobWrite {
  return {
    keys: [base + jobId, ...queueKeys],
    // name, data JSON, opts JSON: add-standard-job.lua's arguments
    args: [DELIVERY_JOB_NAME, JSON.stringify(data), `{"jobId":${JSON.stringify(jobId)},"attempts":0}`],
  };
}

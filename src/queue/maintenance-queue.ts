// The `maintenance` queue: housekeeping jobs (recovery ticks) scheduled by BullMQ, so that however
// many processes run the recovery role, each scheduled run is handed to exactly one of them.
import { Queue } from "bullmq";
import type { RedisClient } from "../store/redis-client.ts";
import type { Keys } from "../store/keys.ts";

export const MAINTENANCE_QUEUE = "maintenance";
/** Job scheduler id of stale-lease recovery; one per deployment prefix. */
export const RECOVERY_SCHEDULER_ID = "recovery";
export const RECOVERY_JOB_NAME = "recover";

/** Data of a maintenance job: none, the tick reads everything from the store. */
export type MaintenanceJobData = Record<string, never>;

/** The maintenance queue on `connection`, under the deployment's hash-tagged prefix. */
export function createMaintenanceQueue(connection: RedisClient, keys: Keys): Queue<MaintenanceJobData> {
  return new Queue<MaintenanceJobData>(MAINTENANCE_QUEUE, {
    connection,
    prefix: keys.queuePrefix(MAINTENANCE_QUEUE),
  });
}

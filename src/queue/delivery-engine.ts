// The one place the delivery engine is chosen (`dispatch.engine`): the producer side every role shares.
// BullMQ jobs are written by the scripts that create their rows only with the BullMQ release their
// layout was verified for; ledger queues are ours, so always.
import type { Config } from "../config/schema.ts";
import type { Logger } from "../observability/logger.ts";
import type { Keys } from "../store/keys.ts";
import type { RedisClient } from "../store/redis-client.ts";
import { LAYOUT_BULLMQ_VERSION, installedBullmqVersion, layoutVerified } from "./bullmq/version.ts";
import type { DeliveryQueueing } from "./delivery-queueing.ts";
import { DeliveryQueues } from "./delivery-queues.ts";
import { LedgerQueues } from "./ledger/ledger-queues.ts";
import { QueuePlan } from "./queue-plan.ts";

export interface DeliveryEngine {
  readonly queues: DeliveryQueueing;
  /** Whether the scripts that create rows queue them in the same call. */
  readonly queuesInScript: boolean;
}

export function createDeliveryEngine(
  redis: RedisClient,
  keys: Keys,
  config: Config,
  logger: Logger,
): DeliveryEngine {
  const plan = QueuePlan.of(config);
  if (config.dispatch.engine === "ledger")
    return { queues: new LedgerQueues(redis, keys, plan, config.dispatch.lock_ms), queuesInScript: true };
  const bullmq = installedBullmqVersion();
  const queuesInScript = layoutVerified(bullmq);
  if (!queuesInScript)
    logger.warn(
      { bullmq, verified: LAYOUT_BULLMQ_VERSION },
      "ingest and fanout add jobs with Queue.add: the in-script job write is verified for another BullMQ release",
    );
  return { queues: new DeliveryQueues(redis, keys, plan), queuesInScript };
}

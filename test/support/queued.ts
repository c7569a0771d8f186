// What a delivery queue holds, for tests that run on either engine (TEST_DISPATCH_ENGINE): BullMQ jobs
// waiting, delayed or prioritized, or a ledger queue's members (ready or later). A delivery a worker
// has taken is in neither.
import { Queue } from "bullmq";
import type { Target } from "../../src/domain/delivery.ts";
import type { DeliveryId } from "../../src/domain/ids.ts";
import { LedgerQueues } from "../../src/queue/ledger/ledger-queues.ts";
import { QueuePlan } from "../../src/queue/queue-plan.ts";
import type { TestGateway } from "./test-gateway.ts";

const WAITING = ["wait", "delayed", "prioritized"] as const;

/** Whether the gateway runs the ledger engine. */
export function onLedgerEngine(gw: Pick<TestGateway, "config">): boolean {
  return gw.config.dispatch.engine === "ledger";
}

/** The name of the queue a delivery goes to. */
export function queueNameOf(gw: Pick<TestGateway, "config">, target: Target, id: DeliveryId): string {
  return QueuePlan.of(gw.config).queueOf(target, id);
}

/** The ids of the deliveries waiting on queue `name` (not those a worker holds). */
export async function queuedIds(gw: TestGateway, name: string): Promise<string[]> {
  if (onLedgerEngine(gw)) {
    const queues = new LedgerQueues(gw.redis, gw.gateway.keys, QueuePlan.of(gw.config), 1000);
    return (await gw.redis.smembers(queues.queue(name).keys[3])).sort();
  }
  const queue = new Queue(name, { connection: gw.redis, prefix: gw.gateway.keys.queuePrefix(name) });
  try {
    const jobs = await queue.getJobs([...WAITING]);
    return jobs.flatMap((job) => (job?.id ? [job.id] : [])).sort();
  } finally {
    await queue.close();
  }
}

/** Whether a delivery waits on its queue. */
export async function isQueued(gw: TestGateway, target: Target, id: DeliveryId): Promise<boolean> {
  return (await queuedIds(gw, queueNameOf(gw, target, id))).includes(id);
}

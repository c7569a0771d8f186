// What a delivery queue holds, entry by entry, for the ingest and cluster tests on either engine
// (TEST_DISPATCH_ENGINE): BullMQ jobs, or a ledger queue's entries. Unlike queued.ts's ids (a ledger
// queue's members set), these are the entries themselves, so a delivery queued twice shows twice, and
// each carries the data a worker reads before its claim.
import { Queue } from "bullmq";
import type { Target } from "../../src/domain/delivery.ts";
import { sinkDeliveryId } from "../../src/domain/hook.ts";
import type { DeliveryId, HookId } from "../../src/domain/ids.ts";
import type { DeliveryJobData } from "../../src/queue/delivery-job.ts";
import { LedgerQueues } from "../../src/queue/ledger/ledger-queues.ts";
import type { LedgerQueue } from "../../src/queue/ledger/ledger-queue.ts";
import { decodeEntry } from "../../src/queue/ledger/queue-entry.ts";
import { QueuePlan } from "../../src/queue/queue-plan.ts";
import { onLedgerEngine, queueNameOf } from "./queued.ts";
import type { TestGateway } from "./test-gateway.ts";

/** One queued delivery: its row's id and what the queue carries of it. */
export interface QueuedEntry {
  readonly id: string;
  readonly data: DeliveryJobData;
}

/** The ledger queue called `name` of the gateway's plan (keys: ready, later, bell, members). */
export function ledgerQueueOf(
  gw: Pick<TestGateway, "config" | "redis" | "gateway">,
  name: string,
): LedgerQueue {
  return new LedgerQueues(
    gw.redis,
    gw.gateway.keys,
    QueuePlan.of(gw.config),
    gw.config.dispatch.lock_ms,
  ).queue(name);
}

/**
 * Every entry waiting on queue `name`, one per queueing: BullMQ jobs waiting, delayed or prioritized,
 * or a ledger queue's ready list and later set. A delivery a worker holds is in neither.
 */
export async function queuedEntries(gw: TestGateway, name: string): Promise<QueuedEntry[]> {
  if (onLedgerEngine(gw)) {
    const [ready, later] = ledgerQueueOf(gw, name).keys;
    const raw = [...(await gw.redis.lrange(ready, 0, -1)), ...(await gw.redis.zrange(later, 0, -1))];
    return raw.map(decodeEntry);
  }
  const queue = new Queue<DeliveryJobData>(name, {
    connection: gw.redis,
    prefix: gw.gateway.keys.queuePrefix(name),
  });
  try {
    const jobs = await queue.getJobs(["wait", "delayed", "prioritized"]);
    return jobs.flatMap((job) => (job?.id ? [{ id: job.id, data: job.data }] : []));
  } finally {
    await queue.close();
  }
}

/** The entries of a hook's delivery to `sink` waiting on its queue (one, if it is queued once). */
export async function queuedEntriesOf(gw: TestGateway, hookId: string, sink: string): Promise<QueuedEntry[]> {
  const id = sinkDeliveryId(hookId as HookId, sink);
  const name = queueNameOf(gw, { kind: "sink", name: sink }, id);
  return (await queuedEntries(gw, name)).filter((entry) => entry.id === id);
}

/**
 * The keys that hold a queued delivery: its BullMQ job hash, or its ledger queue's ready list and
 * members set (shared with the queue's other deliveries).
 */
export function queuedKeysOf(gw: TestGateway, target: Target, id: DeliveryId): string[] {
  const name = queueNameOf(gw, target, id);
  if (!onLedgerEngine(gw)) return [`${gw.gateway.keys.queuePrefix(name)}:${name}:${id}`];
  const [ready, , , members] = ledgerQueueOf(gw, name).keys;
  return [ready, members];
}

// The producer side of delivery queues as the rest of the gateway uses it, whichever engine keeps them:
// BullMQ jobs (delivery-queues.ts) or ledger queues beside the rows (ledger/ledger-queues.ts, see
// docs/ledger-dispatch.md). Ingest, fanout, recovery, replay, the depth gate and the admin API speak
// to this, so the engine is chosen in one place (`dispatch.engine`) and swapped without touching them.
import type { Queue } from "bullmq";
import type { DeliveryRow } from "../domain/delivery.ts";
import type { JobLayout } from "../store/row-write.ts";
import type { QueuePlan } from "./queue-plan.ts";

/** What a queued delivery needs of its row. */
export type JobRef = Pick<DeliveryRow, "id" | "parentId" | "target">;

export type EnsureOutcome = "exists" | "added" | "retried";

/** Counts a queue reports, by state: waiting to run, waiting for a time, and BullMQ's other sets. */
export type QueueStateCounts = Partial<
  Record<"wait" | "delayed" | "prioritized" | "active" | "failed" | "completed", number>
>;

export interface DeliveryQueueing extends JobLayout {
  readonly engine: "bullmq" | "ledger";
  readonly plan: QueuePlan;
  /** Whether this process has a queue for the row's target (its sink is configured). */
  has(row: Pick<JobRef, "id" | "target">): boolean;
  /** A key that queueing the row wrote (in its queue's slot), for a wait on replicas. */
  writtenKey(row: Pick<JobRef, "id" | "target">): string;
  /** Queue each row once; idempotent, one round trip. */
  enqueue(rows: readonly JobRef[]): Promise<void>;
  /** Take the rows off their queues unless a worker has taken them already. */
  discard(rows: readonly JobRef[]): Promise<void>;
  /** Make sure a live row is queued to run (recovery, replay); says whether it was. */
  ensure(row: JobRef): Promise<EnsureOutcome>;
  /** A dead row left the DLQ by hand: drop what its queue still keeps of it. */
  forgetDead(row: JobRef): Promise<void>;
  /** Every queue's counts, by name. */
  counts(): Promise<Record<string, QueueStateCounts>>;
  /** Drop finished entries older than `ageMs`, at most `limit` a queue; how many went. */
  trimFinished(ageMs: number, limit: number): Promise<number>;
  /** The queues the Bull Board dashboard shows. */
  boardQueues(): readonly Queue[];
  close(): Promise<void>;
}

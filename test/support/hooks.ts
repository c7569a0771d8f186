// Small helpers for tests that send hooks through a running test gateway and look at what became of them.
import { type Job, Queue } from "bullmq";
import { type DlqEntry, entryOf } from "../../src/domain/dlq.ts";
import type { ErrorClass } from "../../src/domain/error-class.ts";
import { sinkDeliveryId } from "../../src/domain/hook.ts";
import type { HookId } from "../../src/domain/ids.ts";
import { QueuePlan } from "../../src/queue/queue-plan.ts";
import { parseRow } from "../../src/store/delivery-row.ts";
import type { TestGateway } from "./test-gateway.ts";
import { eventually } from "./test-gateway.ts";

/** POST a hook and return its id; fails the test unless it was accepted. */
export async function sendHook(
  gw: TestGateway,
  source: string,
  body: string | Buffer,
  headers: Record<string, string> = {},
): Promise<string> {
  const res = await fetch(`${gw.url}/webhooks/${source}`, { method: "POST", body, headers });
  const json = (await res.json()) as { id?: string };
  if (res.status !== 202 || !json.id)
    throw new Error(`hook not accepted: ${res.status} ${JSON.stringify(json)}`);
  return json.id;
}

/** A hook's delivery to one sink, as operators see it (an attempt in flight shows as pending/retrying). */
export interface SinkDeliveryState {
  readonly state: "pending" | "retrying" | "delivered" | "dead";
  readonly attempts: number;
  readonly first_attempt_at?: number;
  readonly last_attempt_at?: number;
  readonly next_attempt_at?: number;
  readonly delivered_at?: number;
  readonly dead_at?: number;
  readonly last_error?: string;
  readonly error_class?: ErrorClass;
  readonly status_code?: number;
  readonly replay_id?: string;
  /** The row's own state, `sending` included. */
  readonly row_state: string;
}

/** The delivery row of `hookId` to `sink`, read straight from the ledger. */
export async function sinkState(
  gw: TestGateway,
  hookId: string,
  sink: string,
): Promise<SinkDeliveryState | undefined> {
  const id = sinkDeliveryId(hookId as HookId, sink);
  const row = parseRow(id, await gw.redis.hgetall(gw.gateway.keys.delivery(id)));
  if (!row) return undefined;
  const state = row.state === "sending" ? (row.attempts > 1 ? "retrying" : "pending") : row.state;
  return {
    state,
    row_state: row.state,
    attempts: row.attempts,
    first_attempt_at: row.firstAttemptAt,
    last_attempt_at: row.lastAttemptAt,
    next_attempt_at: row.nextAttemptAt,
    delivered_at: row.deliveredAt,
    dead_at: row.deadAt,
    last_error: row.lastError,
    error_class: row.errorClass,
    status_code: row.statusCode,
    replay_id: row.replayId,
  };
}

/** Wait until the sink's state of the hook is `state`, and return it. */
export function waitForState(
  gw: TestGateway,
  hookId: string,
  sink: string,
  state: SinkDeliveryState["state"],
  timeoutMs = 10_000,
): Promise<SinkDeliveryState> {
  return eventually(
    async () => {
      const s = await sinkState(gw, hookId, sink);
      return s?.state === state ? s : undefined;
    },
    timeoutMs,
    `${hookId} → ${sink} to be ${state}`,
  );
}

/** The value of a counter or gauge sample with exactly these labels (0 if absent). */
export async function metricValue(
  gw: TestGateway,
  name: string,
  labels: Record<string, string>,
): Promise<number> {
  const metric = gw.metrics.registry.getSingleMetric(name);
  if (!metric) return 0;
  const data = await metric.get();
  const sample = data.values.find((v) => Object.entries(labels).every(([k, val]) => v.labels[k] === val));
  return sample?.value ?? 0;
}

/** The BullMQ job of a hook's delivery to `sink` (undefined when there is none). */
export async function deliveryJob(gw: TestGateway, hookId: string, sink: string): Promise<Job | undefined> {
  const id = sinkDeliveryId(hookId as HookId, sink);
  const name = QueuePlan.of(gw.config).queueOf({ kind: "sink", name: sink }, id);
  const queue = new Queue(name, { connection: gw.redis, prefix: gw.gateway.keys.queuePrefix(name) });
  try {
    return await queue.getJob(id);
  } finally {
    await queue.close();
  }
}

/** The DLQ entry of a hook's delivery to `sink`, as GET /v1/dlq would list it. */
export async function dlqEntryOf(
  gw: TestGateway,
  hookId: string,
  sink: string,
): Promise<DlqEntry | undefined> {
  const id = sinkDeliveryId(hookId as HookId, sink);
  return entryOf(parseRow(id, await gw.redis.hgetall(gw.gateway.keys.delivery(id))));
}

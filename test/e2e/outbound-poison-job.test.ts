// A poison outbound delivery: every worker that takes it dies mid-send (SIGKILLed while the endpoint
// holds the request), so it is taken back again and again. It must end as every delivery ends, by its
// retry budget, dead in the ledger and the DLQ. On the BullMQ engine the job stalls each time and must
// not be failed by BullMQ's stall count behind the ledger's back (the outbound pool had no handler that
// ended such a job, so its row stayed `sending` and recovery re-ensured the job for good). On the
// ledger engine there is no job to stall: recovery queues the row again once its lease lapses.
import { expect, it } from "vitest";
import type { EndpointId } from "../../src/domain/ids.ts";
import { OUTBOUND_QUEUE } from "../../src/queue/delivery-job.ts";
import { endpointDeliveryId } from "../../src/store/event-store.ts";
import { admin } from "../integration/admin-fixtures.ts";
import {
  createEndpoint,
  deliveriesOf,
  gateway,
  outboundConfig,
  publish,
  receiver,
  useOutboundTeardown,
} from "../support/outbound.ts";
import { eventually } from "../support/test-gateway.ts";
import { startWorkerProcess, waitForWorkers } from "../support/worker-process.ts";

useOutboundTeardown();

// More than BullMQ's stall limit of the old code (5), so the budget, not the stall count, must end it.
const MAX_ATTEMPTS = 7;

/**
 * Publish to an endpoint that never answers, kill every dispatch-only worker process mid-send and start
 * the next, at most MAX_ATTEMPTS times; how many sends arrived and how the row and the DLQ ended.
 * `recovery`: the test's gateway runs recovery too, ticking every `intervalMs` (it is never killed).
 */
async function poisonRun(engine: "bullmq" | "ledger", recovery?: { intervalMs: number }) {
  const rx = await receiver({ fallback: "hang" });
  const config = outboundConfig(
    {
      timeout_ms: 60_000,
      retry: { base_ms: 20, max_ms: 100, max_attempts: MAX_ATTEMPTS, max_elapsed_ms: 600_000 },
    },
    { dispatch: { lock_ms: 1000, engine } },
  );
  const gw = await gateway(config, recovery ? { roles: ["api", "recovery"], recovery } : { roles: ["api"] });
  const ep = await createEndpoint(gw, { url: `${rx.url}/hook`, event_types: ["order.*"] });
  const eventId = `poison-${Math.random().toString(36).slice(2, 10)}`;
  const id = endpointDeliveryId(eventId, ep.id as EndpointId);

  // Each worker takes the delivery, sends, and is killed mid-send; the next one takes it back.
  let worker = startWorkerProcess(config, { roles: "dispatch" });
  await waitForWorkers(gw, OUTBOUND_QUEUE, 1);
  await publish(gw, { id: eventId, type: "order.paid", payload: { order: 1 } });
  let sends = 0;
  for (let n = 1; n <= MAX_ATTEMPTS; n++) {
    const arrived = await rx.waitForRequests(n, 30_000).then(
      () => true,
      () => false,
    );
    if (!arrived) break; // nothing takes the delivery any more
    sends = n;
    worker.child.kill("SIGKILL");
    await worker.exited;
    worker = startWorkerProcess(config, { roles: "dispatch" });
  }

  // The worker after the last budgeted attempt finds the budget spent and dead-letters the row.
  const ended = await eventually(
    async () => {
      const row = (await deliveriesOf(gw, eventId))[ep.id];
      return row?.state === "dead" ? row : undefined;
    },
    30_000,
    "the poison delivery to end dead",
  ).catch(async () => (await deliveriesOf(gw, eventId))[ep.id]);
  const dlq = await admin(gw, "GET", `/v1/dlq?endpoint=${ep.id}`);
  return {
    id,
    outcome: {
      sends,
      state: ended?.state,
      attempts: ended?.attempts,
      dlq: (dlq.json.data as { id: string }[]).map((e) => e.id),
    },
  };
}

it("regression: a poison outbound job stalled out by BullMQ never ends dead through the ledger", async () => {
  // Pinned to BullMQ: it is about BullMQ's stalled check and stall count (no recovery runs: the
  // stalled check alone hands the job to the next worker).
  const { id, outcome } = await poisonRun("bullmq");
  expect(outcome).toEqual({ sends: MAX_ATTEMPTS, state: "dead", attempts: MAX_ATTEMPTS, dlq: [id] });
}, 240_000);

it("a poison outbound delivery on the ledger engine, taken back by recovery after each crash, ends dead by its budget", async () => {
  // Nothing stalls on the ledger engine: recovery, in the gateway that is never killed, queues the
  // row again once the dead worker's lease lapses.
  const { id, outcome } = await poisonRun("ledger", { intervalMs: 300 });
  expect(outcome).toEqual({ sends: MAX_ATTEMPTS, state: "dead", attempts: MAX_ATTEMPTS, dlq: [id] });
}, 240_000);

// A crash between a fact and its publish loses nothing: a worker process records a delivery's death
// and its `delivery.exhausted` fact in one script, then is SIGKILLed before publishing it (its flush
// delay is long); a new worker process's recovery tick finds the fact in its outbox and publishes it,
// and it arrives exactly once (by event id).
import { expect, it } from "vitest";
import { OUTBOUND_QUEUE } from "../../src/queue/delivery-job.ts";
import { opsEndpoint } from "../support/operational.ts";
import {
  createEndpoint,
  gateway,
  outboundConfig,
  publish,
  receiver,
  useOutboundTeardown,
} from "../support/outbound.ts";
import { type TestGateway, eventually } from "../support/test-gateway.ts";
import { startWorkerProcess, waitForWorkers } from "../support/worker-process.ts";

useOutboundTeardown();

/** Every outbox entry of the deployment (the buckets' outboxes are where delivery facts go). */
async function outboxEntries(gw: TestGateway): Promise<string[]> {
  const keys = gw.gateway.keys;
  const all = await Promise.all(keys.buckets.map((b) => gw.redis.hkeys(keys.opsOutbox(keys.bucketTag(b)))));
  return all.flat();
}

it("crash: a worker SIGKILLed between a fact and its publish; recovery publishes it, exactly once", async () => {
  const config = outboundConfig(
    {
      breaker: { failures: 1000, open_ms: 500, max_open_ms: 2000 },
      retry: { base_ms: 10, max_ms: 20, max_attempts: 1, max_elapsed_ms: 10_000 },
    },
    {
      recovery: { interval_ms: 500, stale_after_ms: 2000 },
      // The worker holds every fact a minute before publishing: it dies first.
      operational: { flush_ms: 60_000 },
    },
  );
  // The API alone in this process: no dispatch, no recovery tick.
  const gw = await gateway(config, { roles: ["api"] });
  // The delivery facts only: the endpoint facts (its own creation) are another test's.
  const ops = await opsEndpoint(gw, { patterns: ["switchyard.delivery.*"] });
  const down = await receiver({ fallback: 500 });
  await createEndpoint(gw, { url: `${down.url}/app`, event_types: ["order.*"] });

  const first = startWorkerProcess(config, { roles: "dispatch" });
  await waitForWorkers(gw, OUTBOUND_QUEUE, 1);
  await publish(gw, { id: "crash-1", type: "order.paid", payload: 1 });
  const [entry] = await eventually(
    async () => {
      const ids = await outboxEntries(gw);
      return ids.length > 0 && ids;
    },
    20_000,
    "the fact in its outbox",
  );
  expect(entry).toMatch(/^op:delivery\.exhausted:dl_/);
  first.child.kill("SIGKILL");
  await first.exited;
  expect(await outboxEntries(gw)).toEqual([entry]);
  expect(ops.rx.requests).toHaveLength(0);

  // A new worker with the recovery role: its tick sweeps the outboxes (its own flush delay is as long).
  startWorkerProcess(config, { roles: "dispatch,recovery" });
  await eventually(() => ops.events().length > 0, 30_000, "the fact to arrive");
  await eventually(async () => (await outboxEntries(gw)).length === 0, 10_000, "the outbox drained");
  await new Promise((r) => setTimeout(r, 2000)); // several more recovery ticks
  expect(ops.events().map((e) => e.id)).toEqual([entry]);
  expect(ops.events()[0]?.data).toMatchObject({ event_id: "crash-1", attempts: 1 });
}, 90_000);

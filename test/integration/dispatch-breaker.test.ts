// The per-sink circuit breaker end to end: consecutive failures open it, parked jobs keep their
// attempts, one probe after the open period decides, and the backlog drains.
import { afterEach, expect, it } from "vitest";
import { sinkDeliveryId } from "../../src/domain/hook.ts";
import type { HookId } from "../../src/domain/ids.ts";
import { metricValue, sendHook, sinkState, waitForState } from "../support/hooks.ts";
import { isQueued, onLedgerEngine } from "../support/queued.ts";
import { type ReceiverGateway, startReceiverGateway } from "../support/receiver-gateway.ts";
import { eventually } from "../support/test-gateway.ts";

let env: ReceiverGateway | undefined;
afterEach(async () => {
  await env?.stop();
  env = undefined;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

it("opens after 5 consecutive 503s, parks jobs without spending attempts, probes once, then drains", async () => {
  env = await startReceiverGateway({
    fallback: 503,
    dispatch: {
      concurrency: 4,
      retry: { base_ms: 10, max_ms: 20, max_attempts: 50, max_elapsed_ms: 60_000 },
      breaker: { failures: 5, open_ms: 1500, max_open_ms: 5000 },
    },
  });
  const { gw, rx } = env;
  const ids = await Promise.all(Array.from({ length: 10 }, (_, i) => sendHook(gw, "src", `{"n":${i}}`)));
  const breaker = () => metricValue(gw, "switchyard_breaker_state", { sink: "out" });
  await eventually(async () => (await breaker()) === 2, 5000, "breaker to open");
  const openedAt = Date.now();

  // Let attempts that were already in flight land, then freeze the picture.
  await sleep(150);
  rx.setFallback({ status: 200, delayMs: 300 });
  // Attempts live on the delivery rows: a parked delivery must not spend one.
  const attemptsOf = async () =>
    Object.fromEntries(
      await Promise.all(ids.map(async (id) => [id, (await sinkState(gw, id, "out"))?.attempts])),
    );
  const requestsWhileOpen = rx.requests.length;
  const attemptsBefore = await attemptsOf();
  expect(Object.keys(attemptsBefore)).toHaveLength(10);

  await sleep(700);
  expect(rx.requests.length).toBe(requestsWhileOpen); // parked, nothing sent
  expect(await attemptsOf()).toEqual(attemptsBefore); // and no attempt spent
  if (onLedgerEngine(gw)) {
    // The sink's ledger queue worker pops nothing while the breaker is open (its hold): every delivery
    // waits on the queue, none taken by a worker.
    const queued = await Promise.all(
      ids.map((id) => isQueued(gw, { kind: "sink", name: "out" }, sinkDeliveryId(id as HookId, "out"))),
    );
    expect(queued).toEqual(ids.map(() => true));
  } else {
    // A BullMQ worker keeps taking jobs, and the runner parks each one.
    expect(
      await metricValue(gw, "switchyard_dispatch_attempts_total", { sink: "out", result: "parked" }),
    ).toBeGreaterThan(0);
  }

  // After the open period: exactly one probe, alone while it is answered. The breaker opened once
  // five attempts had failed, so no earlier than the fifth request arrived: the open period is counted
  // from there (the test sees the metric change only at its next poll, up to a loaded tick later).
  const [probe] = (await rx.waitForRequests(requestsWhileOpen + 1, 5000)).slice(requestsWhileOpen);
  const fifth = rx.requests[4]!.receivedAt;
  expect(fifth).toBeLessThanOrEqual(openedAt);
  expect(probe!.receivedAt - fifth).toBeGreaterThanOrEqual(1400);
  await sleep(200);
  expect(rx.requests.length).toBe(requestsWhileOpen + 1);

  // The probe succeeded: the breaker closes and every hook is delivered.
  for (const id of ids) await waitForState(gw, id, "out", "delivered", 15_000);
  expect(await breaker()).toBe(0);
});

it("doubles the open period when the probe fails", async () => {
  env = await startReceiverGateway({
    fallback: 503,
    dispatch: {
      concurrency: 1,
      retry: { base_ms: 5, max_ms: 10, max_attempts: 50, max_elapsed_ms: 60_000 },
      breaker: { failures: 2, open_ms: 400, max_open_ms: 5000 },
    },
  });
  const { gw, rx } = env;
  await sendHook(gw, "src", "{}");
  // failures at t0, t0+; open 400 ms; probe fails → open 800 ms; probe fails → open 1600 ms.
  await rx.waitForRequests(4, 5000);
  const [, second, third, fourth] = rx.requests;
  const firstGap = third!.receivedAt - second!.receivedAt;
  const secondGap = fourth!.receivedAt - third!.receivedAt;
  expect(firstGap).toBeGreaterThanOrEqual(380);
  expect(secondGap).toBeGreaterThanOrEqual(780);
  expect(secondGap).toBeLessThan(1500);
});

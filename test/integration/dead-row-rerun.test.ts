// A job that runs again after its delivery was written dead: the runner writes `dead` before the throw
// that fails the job, and a crash or a lost lock in between puts the job back in the queue. The next
// worker must find the row dead and just complete the job; the old claim revived any dead row it found
// (as if an operator had retried it), with a fresh attempt budget, and took it off the DLQ. A dead row
// comes back only through a replay.
import { afterEach, expect, it } from "vitest";
import { sinkDeliveryId } from "../../src/domain/hook.ts";
import type { HookId } from "../../src/domain/ids.ts";
import { DeliveryStore, ledgerOptions } from "../../src/store/delivery-store.ts";
import { sendHook } from "../support/hooks.ts";
import { isQueued } from "../support/queued.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";
import { type TestGateway, eventually, startTestGateway, testConfig } from "../support/test-gateway.ts";
import { dlqHookIds, sinkView, sleep } from "./ledger-regressions-fixtures.ts";

const stops: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

it("regression: a job re-run after its dead write revives the row and takes it off the DLQ", async () => {
  const rx: Receiver = await startReceiver({ fallback: 200 });
  stops.push(() => rx.close());
  const config = testConfig({
    sinks: { out: { type: "http", url: `${rx.url}/in` } },
    sources: { src: { verify: { type: "none" }, sinks: ["out"] } },
  });
  const api: TestGateway = await startTestGateway(config, { roles: ["api"] });
  stops.push(() => api.stop());
  const hookId = await sendHook(api, "src", '{"dead":true}');
  const id = sinkDeliveryId(hookId as HookId, "out");

  // The dead write landed; the delivery is still queued (its worker died before failing its BullMQ
  // job, or before the ledger queue's entry was popped).
  const ledger = new DeliveryStore(api.redis, api.gateway.keys, ledgerOptions(config));
  const row = { id, parentId: hookId, target: { kind: "sink", name: "out" } as const, source: "src" };
  const written = await ledger.finish({ ...row, tenant: undefined }, "unfenced", {
    outcome: "dead",
    reason: "permanent: HTTP 400",
    errorClass: "permanent",
  });
  expect(written).toBe(true);
  expect(await dlqHookIds(api)).toEqual([hookId]);
  expect(await isQueued(api, row.target, id)).toBe(true);

  // A worker takes it off the queue and runs it again.
  const dispatch = await startTestGateway(config, { roles: ["dispatch"] });
  stops.push(() => dispatch.gateway.stop());
  await eventually(async () => !(await isQueued(api, row.target, id)), 15_000, "a worker to take it");
  await sleep(500); // and the attempt to end, whatever it writes
  const view = await sinkView(api, hookId, "out");
  expect({
    state: view?.state,
    attempts: view?.attempts,
    dlq: await dlqHookIds(api),
    requests: rx.requests.length,
  }).toEqual({ state: "dead", attempts: 0, dlq: [hookId], requests: 0 });
}, 60_000);

// SIGTERM to a worker process with an attempt in flight in each direction (a sink's and an endpoint's,
// both receivers hung): every pool stops under the one shutdown deadline, the attempts still running
// at it are cancelled and their rows handed back unattempted, and the process exits 0 in time. The old
// dispatch role closed the endpoints' workers and then the sinks', each with its own grace: the 29 s
// hard stop came with the sink attempt still running and its row `sending` until its lease lapsed.
import { expect, it } from "vitest";
import type { EndpointId } from "../../src/domain/ids.ts";
import { OUTBOUND_QUEUE } from "../../src/queue/delivery-job.ts";
import { endpointDeliveryId } from "../../src/store/event-store.ts";
import { sendHook } from "../support/hooks.ts";
import {
  createEndpoint,
  deliveriesOf,
  gateway,
  publish,
  receiver,
  useOutboundTeardown,
} from "../support/outbound.ts";
import { eventually, testConfig } from "../support/test-gateway.ts";
import { startWorkerProcess, waitForWorkers } from "../support/worker-process.ts";
import { sinkView } from "../integration/ledger-regressions-fixtures.ts";

useOutboundTeardown();

/** The README's bounds: finish or hand back by 25 s, exit by 29 s. */
const HARD_STOP_MS = 29_000;

it("regression: SIGTERM with sink and endpoint attempts in flight leaves a row sending past the exit", async () => {
  const sinkRx = await receiver({ script: ["hang"], fallback: 200 });
  const endpointRx = await receiver({ script: ["hang"], fallback: 200 });
  // Leases (20 s) outlast the bound a successor gets (10 s): a row not handed back shows.
  const config = testConfig({
    dispatch: { lock_ms: 20_000, attempt_timeout_ms: 60_000 },
    outbound: { allow_private: true, timeout_ms: 60_000 },
    sinks: { out: { type: "http", url: `${sinkRx.url}/in`, timeout_ms: 60_000 } },
    sources: { src: { verify: { type: "none" }, sinks: ["out"] } },
  });
  const api = await gateway(config, { roles: ["api"] });
  const ep = await createEndpoint(api, { url: `${endpointRx.url}/hook`, event_types: ["order.*"] });
  const eventId = `term-${Math.random().toString(36).slice(2, 10)}`;

  const first = startWorkerProcess(config, { roles: "dispatch" });
  await waitForWorkers(api, OUTBOUND_QUEUE, 1);
  const hookId = await sendHook(api, "src", '{"term":true}');
  await publish(api, { id: eventId, type: "order.paid", payload: { order: 1 } });
  await Promise.all([sinkRx.waitForRequests(1, 20_000), endpointRx.waitForRequests(1, 20_000)]);

  const termAt = Date.now();
  const code = new Promise<number | null>((resolve) => first.child.once("exit", (c) => resolve(c)));
  first.child.kill("SIGTERM");
  const exitCode = await code;
  const stopMs = Date.now() - termAt;

  // From the moment the fresh process runs (booting it under tsx on a loaded machine takes seconds).
  const second = startWorkerProcess(config, { roles: "dispatch", logLevel: "info" });
  await eventually(
    () => second.lines().some((l) => l.msg === "switchyard running"),
    60_000,
    "the fresh process to run",
  );
  const startedAt = Date.now();
  const both = await eventually(
    async () => {
      const sink = await sinkView(api, hookId, "out");
      const endpoint = (await deliveriesOf(api, eventId))[ep.id];
      return sink?.state === "delivered" && endpoint?.state === "delivered" ? true : undefined;
    },
    10_000,
    "the fresh process to deliver both",
  ).catch(() => false);
  const sink = await sinkView(api, hookId, "out");
  const endpoint = (await deliveriesOf(api, eventId))[ep.id];
  expect({
    exitCode,
    exitedInTime: stopMs <= HARD_STOP_MS,
    deliveredWithin10s: both && Date.now() - startedAt <= 10_500,
    sink: sink?.state,
    endpoint: endpoint?.state,
    endpointRow: endpointDeliveryId(eventId, ep.id as EndpointId) === endpoint?.delivery_id,
  }).toEqual({
    exitCode: 0,
    exitedInTime: true,
    deliveredWithin10s: true,
    sink: "delivered",
    endpoint: "delivered",
    endpointRow: true,
  });
}, 120_000);

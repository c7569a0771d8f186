// Outbound deliveries across worker processes that die or stall mid-send (real child processes of the
// `worker` entry point). A worker SIGKILLed while its attempt is `sending` loses nothing: once its lease
// runs out another worker process claims the row (a new fencing token) and delivers it. The old token
// is refused while the new holder is still sending: directly at the ledger, and from a worker that was
// frozen (SIGSTOP) past its lease and comes back to record its attempt's outcome, whose write is
// refused, counted in switchyard_outbound_fenced_writes_total and logged, leaving the row to the new
// holder.
import { expect, it } from "vitest";
import type { EndpointId } from "../../src/domain/ids.ts";
import { OUTBOUND_QUEUE } from "../../src/queue/delivery-job.ts";
import { parseRow } from "../../src/store/delivery-row.ts";
import { DeliveryStore, ledgerOptions } from "../../src/store/delivery-store.ts";
import { endpointDeliveryId } from "../../src/store/event-store.ts";
import {
  createEndpoint,
  gateway,
  outboundConfig,
  publish,
  receiver,
  useOutboundTeardown,
} from "../support/outbound.ts";
import type { Reply } from "../support/receiver.ts";
import { eventually } from "../support/test-gateway.ts";
import { startWorkerProcess, waitForWorkers } from "../support/worker-process.ts";

useOutboundTeardown();

/** A reply held until the test opens it. */
function held(): { reply: Reply; open: () => void } {
  let open = (): void => undefined;
  const after = new Promise<void>((resolve) => (open = resolve));
  return { reply: { status: 200, after }, open };
}

/**
 * An api-only gateway here, one endpoint on a receiver that never answers the first request and holds
 * its answer to the second until `answerSecond`, and the row's handles.
 */
async function setup(timeoutMs: number) {
  const second = held();
  const rx = await receiver({ script: ["hang", second.reply], fallback: 200 });
  // A recovery tick every half second: on the ledger engine recovery is what queues a row whose lease
  // lapsed again (BullMQ's stalled check does it on the BullMQ engine), and it must come well inside
  // the waits below, not at the default 30 s.
  const config = outboundConfig(
    { timeout_ms: timeoutMs },
    { dispatch: { lock_ms: 2000 }, recovery: { interval_ms: 500 } },
  );
  const gw = await gateway(config, { roles: ["api"] });
  const ep = await createEndpoint(gw, { url: `${rx.url}/hook`, event_types: ["order.*"] });
  const eventId = `order-${Math.random().toString(36).slice(2, 10)}`;
  const id = endpointDeliveryId(eventId, ep.id as EndpointId);
  const key = gw.gateway.keys.delivery(id);
  const row = async () => parseRow(id, await gw.redis.hgetall(key));
  return {
    rx,
    config,
    gw,
    eventId,
    id,
    key,
    row,
    /** Let the second worker's request be answered: it records the delivery, under its own token. */
    answerSecond: async () => {
      second.open();
      const delivered = await eventually(
        async () => {
          const r = await row();
          return r?.state === "delivered" ? r : undefined;
        },
        10_000,
        "the second worker to record its delivery",
      );
      expect(delivered).toMatchObject({ attempts: 2, fence: 2 });
      expect(delivered.lastError).toBeUndefined();
      expect(rx.requests).toHaveLength(2);
    },
    publish: () => publish(gw, { id: eventId, type: "order.paid", payload: { order: 1 } }),
    ref: {
      id,
      parentId: eventId,
      target: { kind: "endpoint" as const, id: ep.id as EndpointId },
      source: "order.paid",
      tenant: undefined,
    },
  };
}

it("a worker SIGKILLed while sending: another worker process delivers after the lease, the old token is refused", async () => {
  const s = await setup(20_000);
  // Dispatch only: a SIGKILL that lands in a recovery tick leaves the tick lock held for its 60 s TTL,
  // which would keep the second worker's recovery (the ledger engine's takeover) off the row.
  const first = startWorkerProcess(s.config, { roles: "dispatch" });
  await waitForWorkers(s.gw, OUTBOUND_QUEUE, 1);
  await s.publish();
  await s.rx.waitForRequests(1, 20_000); // the first worker is mid-send: the receiver holds the request
  expect(await s.row()).toMatchObject({ state: "sending", attempts: 1, fence: 1 });

  first.child.kill("SIGKILL");
  await first.exited;
  const leaseUntil = (await s.row())!.leaseUntil!;
  startWorkerProcess(s.config); // the entry point's roles: dispatch and recovery
  await s.rx.waitForRequests(2, 25_000); // the second worker is sending; its answer is held
  const [, retry] = s.rx.requests;
  expect(retry!.receivedAt).toBeGreaterThanOrEqual(leaseUntil); // not taken while the lease was live
  expect(retry!.headers["webhook-id"]).toBe(s.eventId);
  expect(await s.row()).toMatchObject({ state: "sending", attempts: 2, fence: 2 });

  // The dead worker's token, directly at the ledger, while the new holder sends: no outcome and no
  // renewal lands, the row is as the new holder left it.
  const before = await s.gw.redis.hgetall(s.key);
  const ledger = new DeliveryStore(s.gw.redis, s.gw.gateway.keys, ledgerOptions(s.config));
  const stale = { fence: 1 };
  const reason = "attempt timed out";
  const writes = await Promise.all([
    ledger.finish(s.ref, stale, {
      outcome: "retrying",
      nextAttemptAt: Date.now(),
      reason,
      errorClass: "transient",
    }),
    ledger.finish(s.ref, stale, { outcome: "dead", reason, errorClass: "transient" }),
    ledger.finish(s.ref, stale, { outcome: "delivered" }),
    ledger.finish(s.ref, stale, { outcome: "release" }),
    ledger.renew(s.id, stale.fence, Date.now() + 60_000),
  ]);
  expect(writes).toEqual([false, false, false, false, false]);
  expect(await s.gw.redis.hgetall(s.key)).toEqual(before);

  await s.answerSecond();
}, 60_000);

it("a worker frozen past its lease comes back: its outcome is refused, counted and logged", async () => {
  // Once it runs again, the frozen worker's lapsed lease cancels its attempt (LeaseGuard: the deadline
  // comes before the 5 s timeout), and it hands the row back: a write the new owner's fence refuses.
  const s = await setup(5000);
  const frozen = startWorkerProcess(s.config, { roles: "api,dispatch", logLevel: "info" });
  await waitForWorkers(s.gw, OUTBOUND_QUEUE, 1);
  const listening = await eventually(
    () => frozen.lines().find((l) => l.msg === "switchyard listening"),
    30_000,
    "the frozen-to-be worker's API to listen",
  );
  await s.publish();
  await s.rx.waitForRequests(1, 20_000);
  expect(await s.row()).toMatchObject({ state: "sending", fence: 1 });

  frozen.child.kill("SIGSTOP");
  // With recovery: on the ledger engine it queues the row again once the lease lapses (the frozen
  // worker runs none); BullMQ's stalled check does it on the BullMQ engine.
  startWorkerProcess(s.config, { roles: "dispatch,recovery" });
  await s.rx.waitForRequests(2, 25_000); // the second worker has claimed the row and is sending
  expect(await s.row()).toMatchObject({ state: "sending", attempts: 2, fence: 2 });
  const taken = await s.gw.redis.hgetall(s.key);

  frozen.child.kill("SIGCONT");
  const refused = await eventually(
    () => frozen.lines().find((l) => l.msg === "outcome refused: the lease was lost to another worker"),
    20_000,
    "the frozen worker to record its outcome",
  );
  expect(refused).toMatchObject({ delivery_id: s.id, outcome: "release" });
  const metrics = await (await fetch(`http://127.0.0.1:${String(listening.port)}/metrics`)).text();
  expect(metrics).toMatch(/^switchyard_outbound_fenced_writes_total 1$/m);
  expect(await s.gw.redis.hgetall(s.key)).toEqual(taken);

  await s.answerSecond();
}, 90_000);

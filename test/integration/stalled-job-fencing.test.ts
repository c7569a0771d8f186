// A stalled job and the row another worker holds. A worker took the job and stopped (its lock lapsed:
// a crash, a long freeze) while another attempt holds the row's lease. Whatever BullMQ does with the
// stalled job, nothing may end the row behind that lease: the old stalled-job handler wrote `dead`
// without a fencing check once BullMQ's stall limit was passed, over the live attempt. The ledger
// engine has no stalled jobs: its counterpart is an entry popped by a worker that died, queued again
// (as recovery does) and run while another attempt holds the row.
import { Worker } from "bullmq";
import { Redis } from "ioredis";
import { afterEach, expect, it } from "vitest";
import { sinkDeliveryId } from "../../src/domain/hook.ts";
import type { HookId } from "../../src/domain/ids.ts";
import type { GatewayOptions } from "../../src/runtime/gateway.ts";
import { LedgerQueues } from "../../src/queue/ledger/ledger-queues.ts";
import { QueuePlan } from "../../src/queue/queue-plan.ts";
import { DeliveryStore, ledgerOptions } from "../../src/store/delivery-store.ts";
import { parseRow } from "../../src/store/delivery-row.ts";
import { sendHook } from "../support/hooks.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";
import {
  REDIS_URL,
  type TestGateway,
  eventually,
  startTestGateway,
  testConfig,
} from "../support/test-gateway.ts";
import { dlqHookIds, sinkQueue, sleep } from "./ledger-regressions-fixtures.ts";

const stops: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

it("regression: a stalled job writes dead over a row another worker holds (no fencing check)", async () => {
  const rx: Receiver = await startReceiver({ fallback: 200 });
  stops.push(() => rx.close());
  const config = testConfig({
    // BullMQ's stalled-job handling (a worker's lock, the stall check, maxStalledCount) is under test.
    dispatch: { engine: "bullmq", lock_ms: 1000 },
    sinks: { out: { type: "http", url: `${rx.url}/in` } },
    sources: { src: { verify: { type: "none" }, sinks: ["out"] } },
  });
  const api: TestGateway = await startTestGateway(config, { roles: ["api"] });
  stops.push(() => api.stop());
  const hookId = (await sendHook(api, "src", '{"held":true}')) as HookId;
  const id = sinkDeliveryId(hookId, "out");

  // A worker takes the job and stops: its lock is never renewed, so the job will be found stalled.
  const queue = await sinkQueue(api.redis, config.redis.prefix, "out");
  stops.push(() => queue.close());
  const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  stops.push(async () => connection.disconnect());
  const crashed = new Worker(queue.name, null, {
    connection,
    prefix: queue.opts.prefix!,
    lockDuration: 1000,
    autorun: false,
  });
  stops.push(() => crashed.close(true));
  const job = await crashed.getNextJob("crashed-worker");
  expect(job?.id).toBe(id);

  // Another attempt holds the row (an unexpired lease under its fencing token).
  const ledger = new DeliveryStore(api.redis, api.gateway.keys, ledgerOptions(config));
  const held = await ledger.claim(id, api.gateway.keys.hook(hookId), "other-worker", 60_000, [], Date.now());
  expect(held.kind).toBe("ok");
  const before = parseRow(id, await api.redis.hgetall(api.gateway.keys.delivery(id)));

  // A dispatcher finds the job stalled. Even told that one stall is too many (the old option), its
  // handling of the stalled job must leave the held row alone.
  const opts: GatewayOptions & { maxStalledCount: number } = { roles: ["dispatch"], maxStalledCount: 0 };
  const dispatch = await startTestGateway(config, opts);
  stops.push(() => dispatch.gateway.stop());
  await eventually(
    async () => ((await queue.getJobState(id)) === "active" ? undefined : true),
    20_000,
    "the stalled job to leave the active state",
  );
  await sleep(1000);
  const after = parseRow(id, await api.redis.hgetall(api.gateway.keys.delivery(id)));
  expect({
    state: after?.state,
    fence: after?.fence,
    leaseOwner: after?.leaseOwner,
    dlq: await dlqHookIds(api),
    requests: rx.requests.length,
  }).toEqual({
    state: "sending",
    fence: before?.fence,
    leaseOwner: "other-worker",
    dlq: [],
    requests: 0,
  });
}, 60_000);

it("a ledger queue entry run again while another attempt holds its row leaves the row alone", async () => {
  const rx: Receiver = await startReceiver({ fallback: 200 });
  stops.push(() => rx.close());
  const config = testConfig({
    dispatch: { engine: "ledger", lock_ms: 1000 },
    sinks: { out: { type: "http", url: `${rx.url}/in` } },
    sources: { src: { verify: { type: "none" }, sinks: ["out"] } },
  });
  const api: TestGateway = await startTestGateway(config, { roles: ["api"] });
  stops.push(() => api.stop());
  const hookId = (await sendHook(api, "src", '{"held":true}')) as HookId;
  const id = sinkDeliveryId(hookId, "out");
  const row = { id, parentId: hookId, target: { kind: "sink", name: "out" } as const };

  // A worker pops the entry and dies before its claim.
  const queues = new LedgerQueues(api.redis, api.gateway.keys, QueuePlan.of(config), config.dispatch.lock_ms);
  const queue = queues.queue(QueuePlan.of(config).queueOf(row.target, id));
  expect((await queue.pop(1)).entries.map((e) => e.id)).toEqual([id]);

  // Another attempt holds the row (an unexpired lease under its fencing token) ...
  const ledger = new DeliveryStore(api.redis, api.gateway.keys, ledgerOptions(config));
  const held = await ledger.claim(id, api.gateway.keys.hook(hookId), "other-worker", 60_000, [], Date.now());
  expect(held.kind).toBe("ok");
  const before = parseRow(id, await api.redis.hgetall(api.gateway.keys.delivery(id)));
  // ... and the entry is queued again, as recovery queues a popped row that went unclaimed.
  expect(await queues.ensure(row)).toBe("added");

  // A dispatcher's worker pops it: its claim is refused, and it parks the entry until the lease ends.
  const dispatch = await startTestGateway(config, { roles: ["dispatch"] });
  stops.push(() => dispatch.gateway.stop());
  await eventually(
    async () => (await queue.counts()).later === 1 && (await queue.counts()).ready === 0,
    20_000,
    "the entry to be run and parked",
  );
  await sleep(1000);
  const after = parseRow(id, await api.redis.hgetall(api.gateway.keys.delivery(id)));
  expect({
    state: after?.state,
    fence: after?.fence,
    leaseOwner: after?.leaseOwner,
    dlq: await dlqHookIds(api),
    requests: rx.requests.length,
  }).toEqual({
    state: "sending",
    fence: before?.fence,
    leaseOwner: "other-worker",
    dlq: [],
    requests: 0,
  });
}, 60_000);

// Ingest persists a hook and queues its deliveries in one round trip: on a single Redis the persist
// script queues them too (one command, nothing queued without its row: a BullMQ job, or a ledger queue
// entry), and a duplicate queues nothing of its own. On the BullMQ engine a worker that meets a job
// before its hook is written (the cluster path) looks once more instead of dropping it; on the ledger
// engine an entry is written with its row, so one whose row is missing is dropped at its first look.
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import pino from "pino";
import { afterEach, expect, it } from "vitest";
import { sinkDeliveryId } from "../../src/domain/hook.ts";
import type { HookId } from "../../src/domain/ids.ts";
import { DeliveryQueues } from "../../src/queue/delivery-queues.ts";
import { QueuePlan } from "../../src/queue/queue-plan.ts";
import { sinkQueueName } from "../../src/queue/delivery-job.ts";
import { encodeEntry } from "../../src/queue/ledger/queue-entry.ts";
import { metricValue, sendHook } from "../support/hooks.ts";
import { ledgerQueueOf, queuedEntries } from "../support/ingest-cluster-helpers.ts";
import { hookFixture, ledgerStores } from "../support/ledger.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";
import { monitorRedis } from "../support/redis-monitor.ts";
import { type TestGateway, eventually, startTestGateway, testConfig } from "../support/test-gateway.ts";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

/** A gateway delivering to `rx`; `engine` pins the delivery engine (default: TEST_DISPATCH_ENGINE's). */
async function gatewayTo(
  rx: Receiver,
  opts: Parameters<typeof startTestGateway>[1],
  engine?: "bullmq" | "ledger",
): Promise<TestGateway> {
  const gw = await startTestGateway(
    testConfig({
      sinks: { s: { type: "http", url: `${rx.url}/s` } },
      sources: { src: { verify: { type: "none" }, sinks: ["s"] } },
      ...(engine ? { dispatch: { engine } } : {}),
    }),
    opts,
  );
  cleanups.push(() => gw.stop());
  return gw;
}

async function receiver(): Promise<Receiver> {
  const rx = await startReceiver({ fallback: 200 });
  cleanups.push(() => rx.close());
  return rx;
}

function sinkQueue(gw: TestGateway): Queue {
  const name = sinkQueueName("s");
  const queue = new Queue(name, { connection: gw.redis, prefix: gw.gateway.keys.queuePrefix(name) });
  cleanups.push(() => queue.close());
  return queue;
}

/**
 * Send one hook while MONITOR watches, and return the script calls (EVALSHA/EVAL) that name its record
 * or its delivery row's id, once the persist has been seen.
 */
async function sendWatchingScripts(
  gw: TestGateway,
): Promise<{ id: string; row: string; naming: string[][] }> {
  const monitor = await monitorRedis(gw.config.redis.url);
  cleanups.push(async () => monitor.disconnect());
  const seen: string[][] = [];
  const prefix = gw.config.redis.prefix;
  monitor.on("monitor", (_time: string, args: string[]) => {
    // Script calls only (the first of a process goes as EVAL), not the commands they run.
    const script = args[0]?.toLowerCase() === "evalsha" || args[0]?.toLowerCase() === "eval";
    if (script && args.some((a) => a.includes(prefix))) seen.push(args);
  });
  const id = await sendHook(gw, "src", JSON.stringify({ n: 1 }));
  const row = sinkDeliveryId(id as HookId, "s");
  await eventually(
    () => seen.some((args) => args.some((a) => a.endsWith(`:hook:${id}`))),
    5000,
    "the persist",
  );
  // The 202 came after every write was acknowledged; MONITOR has had time to show a late add.
  await new Promise((r) => setTimeout(r, 200));
  const naming = seen.filter((args) => args.some((a) => a.includes(row) || a.endsWith(`:hook:${id}`)));
  return { id, row, naming };
}

/**
 * Every call naming the hook or its delivery is the persist script, naming the hook and `queueKeys`:
 * there is no queueing call of its own. (The first call of a process whose script Redis has not cached
 * is sent twice, EVALSHA then EVAL, the same call.)
 */
function expectOnlyThePersist(id: string, naming: readonly string[][], queueKeys: readonly string[]): void {
  expect(naming.length).toBeGreaterThanOrEqual(1);
  for (const args of naming) {
    for (const key of queueKeys) expect(args).toContain(key);
    expect(args.some((a) => a.endsWith(`:hook:${id}`))).toBe(true);
  }
}

it("writes a hook's record, rows and BullMQ job in one script call on a single Redis, with no add behind it", async () => {
  // BullMQ engine: the persist script writes BullMQ's own job keys (ledger counterpart below).
  const gw = await gatewayTo(await receiver(), { roles: ["api"] }, "bullmq");
  const { id, row, naming } = await sendWatchingScripts(gw);
  const jobKey = `${gw.gateway.keys.queuePrefix(sinkQueueName("s"))}:${sinkQueueName("s")}:${row}`;
  expectOnlyThePersist(id, naming, [jobKey]);
  expect(await sinkQueue(gw).getJobState(row)).toBe("waiting");
});

it("writes a hook's record, rows and ledger queue entry in one script call on a single Redis, with no push behind it", async () => {
  const gw = await gatewayTo(await receiver(), { roles: ["api"] }, "ledger");
  const { id, row, naming } = await sendWatchingScripts(gw);
  const [ready, , bell, members] = ledgerQueueOf(gw, sinkQueueName("s")).keys;
  expectOnlyThePersist(id, naming, [ready, bell, members]);
  for (const args of naming) expect(args).toContain(encodeEntry({ id: row, data: { p: id } }));
  // Queued to run now, once: the entry is in the ready list and its id in the members set.
  expect(await gw.redis.lrange(ready, 0, -1)).toEqual([encodeEntry({ id: row, data: { p: id } })]);
  expect(await gw.redis.smembers(members)).toEqual([row]);
});

it("queues nothing of a duplicate, whose rows were never written", async () => {
  const gw = await gatewayTo(await receiver(), { roles: ["api"] });
  const body = JSON.stringify({ n: "same" });
  const first = await sendHook(gw, "src", body);
  const again = await fetch(`${gw.url}/webhooks/src`, { method: "POST", body });
  expect(again.status).toBe(200);
  expect(((await again.json()) as { id: string }).id).toBe(first);
  // Only the API runs: nothing was taken, so every queueing of either copy is still there to see.
  const queued = await queuedEntries(gw, sinkQueueName("s"));
  expect(queued).toEqual([{ id: sinkDeliveryId(first as HookId, "s"), data: { p: first } }]);
});

it("delivers a hook whose job ran before its record was written, on the job's second look", async () => {
  const rx = await receiver();
  // BullMQ engine: the second look is BullMQ's (attemptsMade); a ledger entry is written with its row.
  const gw = await gatewayTo(rx, { roles: ["dispatch"] }, "bullmq");
  const { keys } = gw.gateway;
  const redis = new Redis(gw.config.redis.url);
  cleanups.push(async () => redis.disconnect());
  const queues = new DeliveryQueues(redis, keys, new QueuePlan({ s: 1 }, false));
  cleanups.push(() => queues.close());
  const hook = hookFixture({ source: "src", sinks: ["s"] });
  const row = {
    id: sinkDeliveryId(hook.id, "s"),
    parentId: hook.id,
    target: { kind: "sink", name: "s" },
  } as const;

  await queues.enqueue([row]);
  await eventually(
    async () => (await metricValue(gw, "switchyard_dispatch_attempts_total", { result: "parked" })) >= 1,
    5000,
    "the first look to park the job",
  );
  await ledgerStores(redis, keys).hooks.persist(hook, { dedupTtlS: 60, staleAfterMs: 60_000 });
  await eventually(() => rx.requests.length === 1, 5000, "the delivery");
  expect(rx.requests[0]?.headers["x-switchyard-id"]).toBe(hook.id);
  expect(await metricValue(gw, "switchyard_dispatch_attempts_total", { result: "missing" })).toBe(0);
});

it("drops a job whose hook was never stored after its second look, without a warning", async () => {
  const rx = await receiver();
  const lines: { level: number; msg: string; delivery_id?: string }[] = [];
  const logger = pino({ level: "debug" }, { write: (l: string) => void lines.push(JSON.parse(l)) });
  // BullMQ engine: the first and second look are BullMQ's (attemptsMade); ledger counterpart below.
  const gw = await gatewayTo(rx, { roles: ["dispatch"], logger }, "bullmq");
  const redis = new Redis(gw.config.redis.url);
  cleanups.push(async () => redis.disconnect());
  const queues = new DeliveryQueues(redis, gw.gateway.keys, new QueuePlan({ s: 1 }, false));
  cleanups.push(() => queues.close());
  const hook = hookFixture({ source: "src", sinks: ["s"] });
  const id = sinkDeliveryId(hook.id, "s");

  await queues.enqueue([{ id, parentId: hook.id, target: { kind: "sink", name: "s" } }]);
  await eventually(
    async () => (await metricValue(gw, "switchyard_dispatch_attempts_total", { result: "missing" })) === 1,
    5000,
    "the second look to drop the job",
  );
  expect(await metricValue(gw, "switchyard_dispatch_attempts_total", { result: "parked" })).toBe(1);
  // Counted before the processor returns; BullMQ removes the completed job just after.
  const queue = sinkQueue(gw);
  await eventually(async () => (await queue.getJobState(id)) === "unknown", 5000, "the job to be removed");
  expect(rx.requests).toHaveLength(0);
  expect(lines.filter((l) => l.level >= 40 && "delivery_id" in l)).toEqual([]);
  expect(lines.some((l) => l.msg === "dropped a job of a hook that was never stored")).toBe(true);
});

it("drops a ledger queue entry whose hook was never stored at its first look, without a warning", async () => {
  const rx = await receiver();
  const lines: { level: number; msg: string; delivery_id?: string }[] = [];
  const logger = pino({ level: "debug" }, { write: (l: string) => void lines.push(JSON.parse(l)) });
  const gw = await gatewayTo(rx, { roles: ["dispatch"], logger }, "ledger");
  const hook = hookFixture({ source: "src", sinks: ["s"] });
  const id = sinkDeliveryId(hook.id, "s");

  // An entry with neither row nor hook (none is written so: entries come with their rows; this is one
  // whose row went since). No second look waits for a write that cannot come.
  await ledgerQueueOf(gw, sinkQueueName("s")).push([{ id, data: { p: hook.id } }]);
  await eventually(
    async () => (await metricValue(gw, "switchyard_dispatch_attempts_total", { result: "missing" })) === 1,
    5000,
    "the first look to drop the entry",
  );
  expect(await metricValue(gw, "switchyard_dispatch_attempts_total", { result: "parked" })).toBe(0);
  expect(await queuedEntries(gw, sinkQueueName("s"))).toEqual([]);
  expect(rx.requests).toHaveLength(0);
  expect(lines.filter((l) => l.level >= 40 && "delivery_id" in l)).toEqual([]);
  expect(lines.some((l) => l.msg === "dropped a job of a hook that was never stored")).toBe(true);
});

// Ingest persists a hook and adds its jobs in one round trip: on a single Redis the persist script
// writes the jobs too (one command, no job without its row), a duplicate leaves no job of its own, and
// a worker that meets a job before its hook is written (the cluster path) looks once more instead of
// dropping it.
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import pino from "pino";
import { afterEach, expect, it } from "vitest";
import { sinkDeliveryId } from "../../src/domain/hook.ts";
import { DeliveryQueues } from "../../src/queue/delivery-queues.ts";
import { QueuePlan } from "../../src/queue/queue-plan.ts";
import { sinkQueueName } from "../../src/queue/delivery-job.ts";
import { metricValue, sendHook } from "../support/hooks.ts";
import { hookFixture, ledgerStores } from "../support/ledger.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";
import { type TestGateway, eventually, startTestGateway, testConfig } from "../support/test-gateway.ts";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

async function gatewayTo(rx: Receiver, opts: Parameters<typeof startTestGateway>[1]): Promise<TestGateway> {
  const gw = await startTestGateway(
    testConfig({
      sinks: { s: { type: "http", url: `${rx.url}/s` } },
      sources: { src: { verify: { type: "none" }, sinks: ["s"] } },
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

it("writes a hook's record, rows and job in one script call on a single Redis, with no add behind it", async () => {
  const gw = await gatewayTo(await receiver(), { roles: ["api"] });
  const monitor = await new Redis(gw.config.redis.url).monitor();
  cleanups.push(async () => monitor.disconnect());
  const seen: string[][] = [];
  const prefix = gw.config.redis.prefix;
  monitor.on("monitor", (_time: string, args: string[]) => {
    // Script calls only (the first of a process goes as EVAL), not the commands they run.
    const script = args[0]?.toLowerCase() === "evalsha" || args[0]?.toLowerCase() === "eval";
    if (script && args.some((a) => a.includes(prefix))) seen.push(args);
  });
  const id = await sendHook(gw, "src", JSON.stringify({ n: 1 }));
  const job = sinkDeliveryId(id as never, "s");
  const jobKey = `${gw.gateway.keys.queuePrefix(sinkQueueName("s"))}:${sinkQueueName("s")}:${job}`;
  await eventually(
    () => seen.some((args) => args.some((a) => a.endsWith(`:hook:${id}`))),
    5000,
    "the persist",
  );
  // The 202 came after every write was acknowledged; MONITOR has had time to show a late add.
  await new Promise((r) => setTimeout(r, 200));
  const naming = seen.filter((args) => args.some((a) => a.includes(job) || a.endsWith(`:hook:${id}`)));
  // Every call naming the hook or its job is the persist script, naming both: there is no add of
  // its own. (The first call of a process whose script Redis has not cached is sent twice, EVALSHA
  // then EVAL, the same call.)
  expect(naming.length).toBeGreaterThanOrEqual(1);
  for (const args of naming) {
    expect(args).toContain(jobKey);
    expect(args.some((a) => a.endsWith(`:hook:${id}`))).toBe(true);
  }
  expect(await sinkQueue(gw).getJobState(job)).toBe("waiting");
});

it("leaves no job of a duplicate, whose rows were never written", async () => {
  const gw = await gatewayTo(await receiver(), { roles: ["api"] });
  const body = JSON.stringify({ n: "same" });
  const first = await sendHook(gw, "src", body);
  const again = await fetch(`${gw.url}/webhooks/src`, { method: "POST", body });
  expect(again.status).toBe(200);
  expect(((await again.json()) as { id: string }).id).toBe(first);
  const jobs = await sinkQueue(gw).getJobs(["waiting", "delayed", "active", "completed", "failed"]);
  expect(jobs.map((j) => j.id)).toEqual([sinkDeliveryId(first as never, "s")]);
});

it("delivers a hook whose job ran before its record was written, on the job's second look", async () => {
  const rx = await receiver();
  const gw = await gatewayTo(rx, { roles: ["dispatch"] });
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
  const gw = await gatewayTo(rx, { roles: ["dispatch"], logger });
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

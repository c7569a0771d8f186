// On a Redis Cluster whose queues are aligned with buckets (the default), ingest writes a hook's record,
// rows and jobs in one script call, as on one Redis: each job is in its bucket's queue, in the slot of
// its row, so no Queue.add follows the persist. With `redis.cluster.queues: partition` the job is added
// behind the persist, in its partition's own slot. Those two are the BullMQ engine's; the ledger
// engine's queues on a cluster are by bucket whatever `queues` says, so its entries are always written
// by the persist, in the record's slot.
import { Queue } from "bullmq";
import { afterAll, beforeAll, expect, it } from "vitest";
import { sinkDeliveryId } from "../../src/domain/hook.ts";
import type { HookId } from "../../src/domain/ids.ts";
import { QueuePlan } from "../../src/queue/queue-plan.ts";
import { encodeEntry } from "../../src/queue/ledger/queue-entry.ts";
import { keySlot } from "../../src/store/key-slot.ts";
import { sendHook } from "../support/hooks.ts";
import { ledgerQueueOf } from "../support/ingest-cluster-helpers.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";
import { type TestCluster, startTestCluster } from "../support/redis-cluster.ts";
import { type RedisMonitor, monitorRedis } from "../support/redis-monitor.ts";
import { type TestGateway, eventually, startTestGateway, testConfig } from "../support/test-gateway.ts";

let cluster: TestCluster;
let rx: Receiver;
const monitors: RedisMonitor[] = [];
/** Script calls (EVALSHA/EVAL) every master has run, with their arguments. */
const seen: string[][] = [];

beforeAll(async () => {
  cluster = await startTestCluster();
  rx = await startReceiver({ fallback: 200 });
  for (const master of await cluster.masters()) {
    const monitor = await monitorRedis(`redis://127.0.0.1:${master.port}`);
    monitor.on("monitor", (_time: string, args: string[]) => {
      const verb = args[0]?.toLowerCase();
      if (verb === "evalsha" || verb === "eval") seen.push(args);
    });
    monitors.push(monitor);
  }
}, 60_000);

afterAll(async () => {
  for (const m of monitors) m.disconnect();
  await rx?.close();
  await cluster?.stop();
});

async function gatewayOn(engine: "bullmq" | "ledger", queues?: "partition"): Promise<TestGateway> {
  return startTestGateway(
    testConfig({
      dispatch: { engine },
      redis: { cluster: { nodes: cluster.seeds, ...(queues ? { queues } : {}) } },
      sinks: {
        s: { type: "http", url: `${rx.url}/s`, partitions: 2 },
        t: { type: "http", url: `${rx.url}/t` },
      },
      sources: { src: { verify: { type: "none" }, sinks: ["s", "t"] } },
    }),
    { roles: ["api"] },
  );
}

/**
 * Send hooks; per hook, the script calls naming its record or rows, and the keys that queue its rows:
 * each job's key (BullMQ), or each row's ledger queue's ready, bell and members keys.
 */
async function ingestAndWatch(gw: TestGateway, n: number, tag: string) {
  const plan = QueuePlan.of(gw.config);
  const { keys } = gw.gateway;
  const ledger = gw.config.dispatch.engine === "ledger";
  const hooks = await Promise.all(
    Array.from({ length: n }, (_, i) => sendHook(gw, "src", JSON.stringify({ tag, i }))),
  );
  await eventually(
    () => hooks.every((id) => seen.some((args) => args.some((a) => a.endsWith(`:hook:${id}`)))),
    5000,
    "every persist",
  );
  // The 202s came after every write was acknowledged; MONITOR has had time to show a late add.
  await new Promise((r) => setTimeout(r, 300));
  return hooks.map((id) => {
    const rows = ["s", "t"].map((sink) => sinkDeliveryId(id as HookId, sink));
    const jobKeys = rows.flatMap((row, i) => {
      const queue = plan.queueOf({ kind: "sink", name: i === 0 ? "s" : "t" }, row);
      if (!ledger) return [`${keys.queuePrefix(queue)}:${queue}:${row}`];
      const [ready, , bell, members] = ledgerQueueOf(gw, queue).keys;
      return [ready, bell, members];
    });
    // BullMQ's own add names the job by its id inside its packed arguments, not by its key.
    const naming = seen.filter((args) =>
      args.some((a) => a.endsWith(`:hook:${id}`) || rows.some((row) => a.includes(row))),
    );
    return { id, hookKey: keys.hook(id as HookId), rows, jobKeys, naming };
  });
}

it("writes each hook's record, rows and jobs in one script call, the jobs in the record's slot", async () => {
  // BullMQ engine: its bucket layout against its partition layout below (ledger counterpart at the end).
  const gw = await gatewayOn("bullmq");
  try {
    expect(QueuePlan.of(gw.config).byBucket).toBe(true);
    for (const { hookKey, jobKeys, naming } of await ingestAndWatch(gw, 20, "aligned")) {
      for (const key of jobKeys) expect(keySlot(key)).toBe(keySlot(hookKey));
      // Every call naming the hook or a job of it is the persist, naming all of them (the first call
      // of a process whose script a node has not cached goes twice, EVALSHA then EVAL: the same call).
      expect(naming.length).toBeGreaterThanOrEqual(1);
      for (const args of naming) {
        expect(args).toContain(hookKey);
        for (const key of jobKeys) expect(args).toContain(key);
      }
    }
    // The jobs are there, waiting for a worker, in the bucket queues.
    const [first] = await ingestAndWatch(gw, 1, "one more");
    const row = sinkDeliveryId(first!.id as HookId, "s");
    const name = QueuePlan.of(gw.config).queueOf({ kind: "sink", name: "s" }, row);
    const queue = new Queue(name, { connection: gw.redis, prefix: gw.gateway.keys.queuePrefix(name) });
    expect(await queue.getJobState(row)).toBe("waiting");
    await queue.close();
  } finally {
    await gw.stop();
  }
}, 60_000);

it("adds the jobs behind the persist, in their own slots, with queues by partition", async () => {
  // BullMQ engine: only its queues are laid out by partition on a cluster.
  const gw = await gatewayOn("bullmq", "partition");
  try {
    expect(QueuePlan.of(gw.config).byBucket).toBe(false);
    for (const { hookKey, rows, jobKeys, naming } of await ingestAndWatch(gw, 5, "partitioned")) {
      const persist = naming.filter((args) => args.includes(hookKey));
      expect(persist.length).toBeGreaterThanOrEqual(1);
      for (const args of persist) for (const key of jobKeys) expect(args).not.toContain(key);
      // Each job came in a call of its own, not naming the hook.
      for (const row of rows)
        expect(naming.some((args) => !args.includes(hookKey) && args.some((a) => a.includes(row)))).toBe(
          true,
        );
    }
  } finally {
    await gw.stop();
  }
}, 60_000);

for (const queues of [undefined, "partition"] as const)
  it(`writes each hook's record, rows and ledger queue entries in one script call in the record's slot (queues: ${queues ?? "default"})`, async () => {
    const gw = await gatewayOn("ledger", queues);
    try {
      const plan = QueuePlan.of(gw.config);
      expect(plan.byBucket).toBe(true);
      for (const { id, hookKey, rows, jobKeys, naming } of await ingestAndWatch(gw, 20, `ledger ${queues}`)) {
        for (const key of jobKeys) expect(keySlot(key)).toBe(keySlot(hookKey));
        // Every call naming the hook or a row is the persist, naming the hook, each row's queue keys
        // and its entry: no push of its own follows.
        expect(naming.length).toBeGreaterThanOrEqual(1);
        for (const args of naming) {
          expect(args).toContain(hookKey);
          for (const key of jobKeys) expect(args).toContain(key);
          for (const row of rows) expect(args).toContain(encodeEntry({ id: row, data: { p: id } }));
        }
        // Each entry waits, once, in its bucket's queue (no worker runs here).
        for (const [i, row] of rows.entries()) {
          const name = plan.queueOf({ kind: "sink", name: i === 0 ? "s" : "t" }, row);
          const [ready] = ledgerQueueOf(gw, name).keys;
          const entries = await gw.redis.lrange(ready, 0, -1);
          expect(entries.filter((e) => e === encodeEntry({ id: row, data: { p: id } }))).toHaveLength(1);
        }
      }
    } finally {
      await gw.stop();
    }
  }, 60_000);

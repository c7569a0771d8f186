// Resuming a replay after a crash at each point of a step. The runner's step is: announce the batch
// (inflight) → per entry revive the dead row under the replay's id → make its job run again → commit
// (counters, cursor). Here a batch is left half done by hand in every way a crash can leave it, and a
// fresh runner must finish it moving each entry exactly once.
import { afterEach, expect, it } from "vitest";
import { type IndexPosition, rangeOf } from "../../src/domain/dlq.ts";
import type { DeliveryId, ReplayId } from "../../src/domain/ids.ts";
import { silentLogger } from "../../src/observability/logger.ts";
import { Metrics } from "../../src/observability/metrics.ts";
import { createDeliveryEngine } from "../../src/queue/delivery-engine.ts";
import type { DeliveryQueueing } from "../../src/queue/delivery-queueing.ts";
import { ReplayQueue } from "../../src/queue/replay-queue.ts";
import { type Gateway, startGateway } from "../../src/runtime/gateway.ts";
import { ReplayStore } from "../../src/store/replay-store.ts";
import { sinkState, waitForState } from "../support/hooks.ts";
import { ledgerStores } from "../support/ledger.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";
import { type TestGateway, eventually, startTestGateway, testConfig } from "../support/test-gateway.ts";
import { admin, deadHooks, dlqSize, replayState } from "./admin-fixtures.ts";

let api: TestGateway | undefined;
const runners: Gateway[] = [];
let rx: Receiver | undefined;
let queues: DeliveryQueueing | undefined;
let replayQueue: ReplayQueue | undefined;
let store: ReplayStore | undefined;

afterEach(async () => {
  for (const r of runners.splice(0)) await r.stop();
  await queues?.close();
  queues = undefined;
  await replayQueue?.close();
  replayQueue = undefined;
  store = undefined;
  await api?.stop();
  await rx?.close();
});

const config = (url: string) =>
  testConfig({
    dispatch: { concurrency: 16, lock_ms: 2000 },
    sinks: { out: { type: "http", url: `${url}/in` } },
    sources: { src: { verify: { type: "none" }, sinks: ["out"] } },
  });

async function startRunner(cfg: ReturnType<typeof config>): Promise<Gateway> {
  const gw = await startGateway(cfg, {
    roles: ["recovery"],
    logger: silentLogger(),
    metrics: new Metrics(),
    listen: false,
    graceMs: 2000,
  });
  runners.push(gw);
  return gw;
}

/** Requests the receiver got per hook id, from index `from` on. */
function perHook(from: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of rx!.requests.slice(from)) {
    const id = String(r.headers["x-switchyard-id"]);
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

it("finishes a batch left half done by a crash, moving each entry exactly once", async () => {
  rx = await startReceiver({ fallback: 410 });
  const cfg = config(rx.url);
  api = await startTestGateway(cfg, { roles: ["api", "dispatch"] });
  const keys = api.gateway.keys;
  await deadHooks(api, "src", 6);
  const { dlq, ledger } = ledgerStores(api.redis, keys, { retentionS: 3600 });
  store = new ReplayStore(api.redis, keys, 3600);
  replayQueue = new ReplayQueue(api.redis, keys);
  // The gateway's own engine (BullMQ jobs or ledger queues): "make its job run again" as the runner does.
  queues = createDeliveryEngine(api.redis, keys, cfg, silentLogger()).queues;

  // The replay's scan order: oldest first, ties by id, over every bucket.
  const { members } = await dlq.slice("source:src", "asc", rangeOf({}), undefined, 100);
  const [e1, e2, e3, e4, e5, e6] = members as [
    IndexPosition,
    IndexPosition,
    IndexPosition,
    IndexPosition,
    IndexPosition,
    IndexPosition,
  ];
  expect(members).toHaveLength(6);

  await new Promise((r) => setTimeout(r, 5));
  const created = await store.create(
    {
      tenant: undefined,
      filter: { source: "src" },
      rate_per_s: 1000,
      index: "source:src",
      targets: undefined,
      total_estimate: 6,
      created_at: Date.now(),
    },
    10,
  );
  if (created.kind !== "created") throw new Error("the replay was refused");
  const { record } = created;
  const R = record.id as ReplayId;
  await new Promise((r) => setTimeout(r, 5));
  const hookOf = async (e: IndexPosition): Promise<string> =>
    (await ledger.get(e.id as DeliveryId))!.parentId;
  const revive = async (e: IndexPosition) => {
    const row = (await ledger.get(e.id as DeliveryId))!;
    expect(await ledger.revive(row, R, record.created_at)).toBe("moved");
    return row;
  };
  const sentBefore = rx.requests.length;

  // e2: crashed between reviving the row and making its job run again.
  await revive(e2);
  // e4: moved, then died again (the receiver still refuses): dead again, newer than the snapshot.
  await queues.ensure(await revive(e4));
  await eventually(async () => {
    const s = await sinkState(api!, await hookOf(e4), "out");
    return s?.state === "dead" && s.replay_id === R;
  });
  rx.setFallback(200);
  // e3: moved and already delivered (off the DLQ; only the in-flight batch remembers it).
  await queues.ensure(await revive(e3));
  await waitForState(api, await hookOf(e3), "out", "delivered");
  expect(await dlq.get(e3.id as DeliveryId)).toBeUndefined();
  // e1: announced, not touched. The batch e1..e4 is in flight; e5, e6 come after it.
  await api.redis.hset(
    keys.replay(R),
    "inflight",
    JSON.stringify({ ids: [e1.id, e2.id, e3.id, e4.id], end: { kind: "index", ...e4 } }),
  );

  await startRunner(cfg);
  await replayQueue.enqueue(R);
  const done = await replayState(api, R, "done", 20_000);
  expect(done).toMatchObject({ matched: 6, moved: 6, failed: 0 });
  await eventually(() => rx!.requests.length >= sentBefore + 6 && true, 10_000, "6 deliveries");
  await new Promise((r) => setTimeout(r, 500));

  const counts = perHook(sentBefore);
  // e4 went once (and died again); every other entry was delivered exactly once.
  const hooks = await Promise.all([e1, e2, e3, e4, e5, e6].map(hookOf));
  expect(Object.fromEntries(counts)).toEqual(Object.fromEntries(hooks.map((h) => [h, 1])));
  // Only e4's new death is in the DLQ: the replay did not take it off again.
  expect(await dlqSize(api)).toBe(1);
  expect((await dlq.get(e4.id as DeliveryId))?.dead_at).toBeGreaterThan(record.created_at);
  expect(await api.redis.hexists(keys.replay(R), "inflight")).toBe(0);
}, 60_000);

it("hands a replay back on a graceful stop, and another runner finishes it exactly once", async () => {
  rx = await startReceiver({ fallback: 410 });
  const cfg = config(rx.url);
  api = await startTestGateway(cfg, { roles: ["api", "dispatch"] });
  await deadHooks(api, "src", 200);
  rx.setFallback(200);
  const sentBefore = rx.requests.length;
  const first = await startRunner(cfg);
  const created = await admin(api, "POST", "/v1/replays", { body: { filter: {}, rate_per_s: 100 } });
  const id = created.json.id as string;
  await eventually(async () => (await admin(api!, "GET", `/v1/replays/${id}`)).json.moved >= 50, 20_000);

  const stopping = Date.now();
  await first.stop();
  runners.splice(runners.indexOf(first), 1);
  expect(Date.now() - stopping).toBeLessThan(1500); // handed back, not run to the end
  const paused = (await admin(api, "GET", `/v1/replays/${id}`)).json;
  expect(paused.state).toBe("running");
  expect(paused.moved).toBeLessThan(200);

  await startRunner(cfg);
  expect(await replayState(api, id, "done", 20_000)).toMatchObject({ matched: 200, moved: 200, failed: 0 });
  await eventually(() => rx!.requests.length >= sentBefore + 200 && true, 10_000, "200 deliveries");
  await new Promise((r) => setTimeout(r, 300));
  const counts = perHook(sentBefore);
  expect(counts.size).toBe(200);
  expect([...counts.values()].every((n) => n === 1)).toBe(true);
}, 60_000);

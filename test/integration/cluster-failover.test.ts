// Durable acks on a real Redis Cluster (durability.wait_replicas: 1): WAIT goes to the master of every
// key a hook wrote (its record's and each job's), so a master without a live replica turns exactly the
// hooks it took into 503s; and a master SIGKILLed while hooks flow is replaced by its replica without
// losing a single hook that was answered 2xx.
import type { Cluster } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import { sinkDeliveryId } from "../../src/domain/hook.ts";
import type { HookId } from "../../src/domain/ids.ts";
import { QueuePlan } from "../../src/queue/queue-plan.ts";
import { keySlot } from "../../src/store/key-slot.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";
import { type TestCluster, startTestCluster } from "../support/redis-cluster.ts";
import {
  ADMIN_TOKEN,
  type TestGateway,
  eventually,
  startTestGateway,
  testConfig,
} from "../support/test-gateway.ts";

let cluster: TestCluster;
let gw: TestGateway;
const rx: Receiver[] = [];
const SINKS = ["a", "b"] as const;
const PARTITIONS = { a: 2, b: 2 };

beforeAll(async () => {
  cluster = await startTestCluster({ nodeTimeoutMs: 1000 });
  for (const _ of SINKS) rx.push(await startReceiver({ fallback: 200 }));
  gw = await startTestGateway(
    testConfig({
      redis: { cluster: { nodes: cluster.seeds } },
      durability: { wait_replicas: 1, wait_timeout_ms: 300 },
      recovery: { interval_ms: 500, stale_after_ms: 2000 },
      sinks: Object.fromEntries(
        SINKS.map((s, i) => [s, { type: "http", url: `${rx[i]!.url}/${s}`, partitions: PARTITIONS[s] }]),
      ),
      sources: { src: { verify: { type: "none" }, sinks: [...SINKS] } },
    }),
    { recovery: { intervalMs: 500 } },
  );
}, 60_000);

afterAll(async () => {
  await gw?.stop();
  for (const r of rx) await r.close();
  await cluster?.stop();
});

/** POST one hook; its status and (when accepted) id. */
async function post(n: number): Promise<{ status: number; id?: string }> {
  try {
    const res = await fetch(`${gw.url}/webhooks/src`, { method: "POST", body: JSON.stringify({ n }) });
    const json = (await res.json()) as { id?: string };
    return { status: res.status, ...(json.id ? { id: json.id } : {}) };
  } catch {
    return { status: 0 };
  }
}

/** Ports of the masters serving the keys a hook wrote: its record and each sink's job. */
function ownersOf(id: string): Set<number> {
  const client = gw.redis as Cluster;
  const keys = gw.gateway.keys;
  const written = [keys.hook(id as HookId)];
  for (const sink of SINKS) {
    const row = sinkDeliveryId(id as HookId, sink);
    const queue = QueuePlan.of(gw.config).queueOf({ kind: "sink", name: sink }, row);
    written.push(`${keys.queuePrefix(queue)}:${queue}:${row}`);
  }
  return new Set(written.map((key) => Number(client.slots[keySlot(key)]?.[0]?.split(":")[1])));
}

/** WAIT commands a node has run so far (INFO commandstats). */
async function waitCalls(port: number): Promise<number> {
  const node = (gw.redis as Cluster).nodes("master").find((n) => n.options.port === port);
  const stats = (await node?.info("commandstats")) ?? "";
  return Number(/cmdstat_wait:calls=(\d+)/.exec(stats)?.[1] ?? 0);
}

const deliveredEverywhere = (id: string): boolean =>
  rx.every((r) => r.requests.some((q) => q.headers["x-switchyard-id"] === id));

it("answers 503 exactly for the hooks whose record or job is on a master without a live replica", async () => {
  const topology = await cluster.topology();
  const master = topology.find((n) => n.role === "master")!;
  const replica = topology.find((n) => n.role === "replica" && n.masterPort === master.port)!;
  cluster.kill(replica.port);
  // The master notices the replica's connection drop at once.
  await eventually(
    async () =>
      (
        await (gw.redis as Cluster)
          .nodes("master")
          .find((n) => n.options.port === master.port)
          ?.info("replication")
      )?.includes("connected_slaves:0"),
    10_000,
    "the master to lose its replica",
  );

  const waitsBefore = await waitCalls(master.port);
  const sentAt = Date.now();
  const answers = await Promise.all(Array.from({ length: 60 }, (_, n) => post(1_000_000 + n)));
  const tookMs = Date.now() - sentAt;
  const waits = (await waitCalls(master.port)) - waitsBefore;
  const refused: number[] = [];
  answers.forEach((a, n) => {
    expect([202, 503]).toContain(a.status);
    if (a.status === 503) refused.push(1_000_000 + n);
    // Every write of an accepted hook is on a master that has a replica.
    if (a.id) expect(ownersOf(a.id).has(master.port)).toBe(false);
  });
  console.log(
    `dead replica of master ${master.port}: ${60 - refused.length} accepted, ${refused.length} answered 503, ` +
      `in ${tookMs} ms, ${waits} WAITs on that master`,
  );
  expect(refused.length).toBeGreaterThan(0);
  // WAIT blocks its connection for the whole timeout here: the requests share WAITs (a WAIT sent after a
  // write covers it) rather than queueing one 300 ms WAIT each, one behind the other.
  // With queues aligned to buckets a hook writes one slot, so how many are refused follows how many of
  // the 16 buckets that master holds (as few as 7 of 60 were seen): one WAIT each would be `refused`,
  // sharing them stays well under it.
  expect(waits).toBeLessThanOrEqual(Math.max(4, Math.floor(refused.length * 0.75)));

  // Regression: an event's 202 did not wait for replicas. Exactly the events whose record is on the
  // master without a replica are refused (publishing again later is idempotent).
  const events = await Promise.all(
    Array.from({ length: 24 }, async (_, n) => {
      const id = `order:${n}:paid`;
      const res = await fetch(`${gw.url}/v1/events`, {
        method: "POST",
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify({ id, type: "order.paid", payload: { n } }),
      });
      const client = gw.redis as Cluster;
      const owner = Number(client.slots[keySlot(gw.gateway.keys.event(id))]?.[0]?.split(":")[1]);
      return { status: res.status, onBareMaster: owner === master.port };
    }),
  );
  expect(events.some((e) => e.onBareMaster)).toBe(true);
  for (const e of events) expect(e.status).toBe(e.onBareMaster ? 503 : 202);

  // Regression: a duplicate did not wait for replicas. A retry while the replica is still down names
  // the first copy, whose writes no replica holds yet: it is refused again, not answered 200.
  const early = await post(refused[0]!);
  expect(early.status).toBe(503);

  // The provider retries a 503: the first copy was written, so the retry is a duplicate naming it,
  // and that hook did write to the master that had no replica.
  await cluster.restart(replica.port);
  await cluster.waitHealthy();
  for (const n of refused) {
    const again = await post(n);
    expect(again.status).toBe(200);
    expect(ownersOf(again.id!).has(master.port)).toBe(true);
  }
}, 60_000);

it("loses no acknowledged hook when a master is SIGKILLed while hooks flow (wait_replicas: 1)", async () => {
  const masters = await cluster.masters();
  const victim = masters[masters.length - 1]!;
  const accepted: string[] = [];
  const counts = { accepted: 0, refused: 0, refusedAfterKill: 0, failed: 0 };
  let killedAt = 0;
  let stop = false;
  let n = 0;
  const sender = async (): Promise<void> => {
    while (!stop) {
      const a = await post(n++);
      if (a.status === 202 && a.id) {
        accepted.push(a.id);
        counts.accepted++;
      } else if (a.status === 503) {
        counts.refused++;
        if (killedAt > 0) counts.refusedAfterKill++;
        await new Promise((r) => setTimeout(r, 50));
      } else counts.failed++;
    }
  };
  const senders = Array.from({ length: 8 }, sender);
  // Hooks flow before the kill however loaded the machine is (a count, not a fixed time).
  await new Promise((r) => setTimeout(r, 1500));
  await eventually(() => counts.accepted >= 30, 30_000, "30 hooks accepted before the kill");
  cluster.kill(victim.port);
  killedAt = Date.now();
  // Its replica is promoted after cluster-node-timeout (1 s) and an election; keep sending through it.
  await eventually(
    async () => {
      const now = await cluster.masters();
      return now.length === 3 && !now.some((m) => m.port === victim.port);
    },
    20_000,
    "the victim's replica to be promoted",
  );
  const promotedIn = Date.now() - killedAt;
  // The promoted master has no replica of its own until the killed node is back (as the platform would
  // restart it): until then the hooks that write to it are refused (503), and when the victim held
  // every partition of a sink, that is all of them. Restarted, it rejoins as the new master's replica.
  await new Promise((r) => setTimeout(r, 1000));
  await cluster.restart(victim.port);
  await cluster.waitHealthy();
  const beforeRejoin = counts.accepted;
  await eventually(
    () => counts.accepted >= beforeRejoin + 10,
    30_000,
    "10 more hooks accepted once the failed-over shard has a replica again",
  );
  stop = true;
  await Promise.all(senders);

  await eventually(
    () => accepted.every(deliveredEverywhere),
    90_000,
    "every accepted hook delivered to both sinks",
  );
  const lost = accepted.filter((id) => !deliveredEverywhere(id)).length;
  console.log(
    `failover of master ${victim.port}: ${counts.accepted} accepted (2xx), ${counts.refused} answered 503 ` +
      `(${counts.refusedAfterKill} after the kill), ${counts.failed} other, lost ${lost}; replica promoted ${promotedIn} ms after the kill`,
  );
  expect(lost).toBe(0);
  expect(counts.failed).toBe(0);
  expect(counts.accepted).toBeGreaterThanOrEqual(40);
}, 150_000);

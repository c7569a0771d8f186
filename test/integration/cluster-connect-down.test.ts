// Connecting to a Redis Cluster while it is down (cluster_state:fail, as for the seconds a master fails
// over) must succeed once it is back. ioredis's Cluster#connect() used to stay pending for good then:
// its ready check saw cluster_state:fail, reconnected on a promise of its own and left the caller's
// unsettled. A worker process restarted during a failover in the chaos suite hung at boot that way
// for minutes (it never logged "switchyard running"); BullMQ calls connect() on its connections too.
import { afterAll, beforeAll, expect, it } from "vitest";
import { connectRedis, createCommandRedis, createWorkerRedis } from "../../src/runtime/redis.ts";
import type { RedisClient } from "../../src/store/redis-client.ts";
import { type TestCluster, ask, startTestCluster } from "../support/redis-cluster.ts";
import { eventually } from "../support/test-gateway.ts";

let cluster: TestCluster;
const clients: RedisClient[] = [];

beforeAll(async () => {
  cluster = await startTestCluster({ nodeTimeoutMs: 1000 });
}, 60_000);

afterAll(async () => {
  for (const c of clients) c.disconnect();
  await cluster?.stop();
});

async function clusterState(port: number): Promise<string | undefined> {
  const info = await ask(port, (r) => r.call("CLUSTER", "INFO")).catch(() => undefined);
  return info === undefined ? undefined : /cluster_state:(\w+)/.exec(String(info))?.[1];
}

/** Whether `p` settles within `ms`: "resolved", "rejected: …", or "pending". */
async function settles(p: Promise<unknown>, ms: number): Promise<string> {
  const timeout = new Promise<string>((r) => setTimeout(() => r("pending"), ms));
  return Promise.race([
    p.then(
      () => "resolved",
      (err: Error) => `rejected: ${err.message}`,
    ),
    timeout,
  ]);
}

it("connect() resolves once a cluster that was down when it was called is back", async () => {
  // A master and its replica down: their slots have no server, every other node says fail, for as
  // long as the test wants (a failover would end it within seconds, racing the connect).
  const topology = await cluster.topology();
  const master = topology.find((n) => n.role === "master")!;
  const replica = topology.find((n) => n.masterPort === master.port)!;
  cluster.kill(replica.port);
  cluster.kill(master.port);
  const others = topology.filter((n) => n.port !== master.port && n.port !== replica.port);
  await eventually(
    async () => (await Promise.all(others.map((n) => clusterState(n.port)))).every((s) => s === "fail"),
    20_000,
    "cluster_state:fail on every live node",
  );

  const target = { url: "redis://unused:6379", cluster: { nodes: [...cluster.seeds] } };
  const command = createCommandRedis(target, "connect-down-command");
  const worker = createWorkerRedis(target, "connect-down-worker");
  // What BullMQ does for a worker's blocking connection: a duplicate, then connect().
  const blocking = worker.duplicate();
  clients.push(command, worker, blocking);
  for (const c of clients) c.on("error", () => undefined);
  const connecting = {
    command: connectRedis(command, target),
    worker: worker.connect(),
    blocking: blocking.connect(),
  };
  // Long enough for every client's ready check to have met cluster_state:fail and reconnected.
  await new Promise((r) => setTimeout(r, 3000));

  await cluster.restart(master.port);
  await cluster.restart(replica.port);
  await cluster.waitHealthy(30_000);
  const outcomes = {
    command: await settles(connecting.command, 15_000),
    worker: await settles(connecting.worker, 15_000),
    blocking: await settles(connecting.blocking, 15_000),
  };
  const statuses = `client statuses: ${clients.map((c) => c.status).join(", ")}`;
  expect(outcomes, statuses).toEqual({ command: "resolved", worker: "resolved", blocking: "resolved" });
  await command.set("{connect-down}:k", "v");
  expect(await worker.get("{connect-down}:k")).toBe("v");
}, 120_000);

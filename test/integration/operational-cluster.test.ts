// Operational events on a real Redis Cluster (3 masters, 3 replicas, started by the test): the finish
// script writes a delivery's fact into its bucket's outbox within its own slot, the process marks the
// outbox dirty right after (the dirty set is another slot), and the fact arrives; a fact in an outbox
// nobody marked (here: an endpoint's own tag, as a breaker's script would write it) is found by the
// recovery tick's sweep, which walks the endpoints' tags a page at a time.
import { afterAll, beforeAll, expect, it } from "vitest";
import { operationalEventId } from "../../src/domain/operational-events.ts";
import { sendHook } from "../support/hooks.ts";
import { type OpsEndpoint, opsEndpoint } from "../support/operational.ts";
import type { Receiver } from "../support/receiver.ts";
import { startReceiver } from "../support/receiver.ts";
import { type TestCluster, startTestCluster } from "../support/redis-cluster.ts";
import { type TestGateway, eventually, startTestGateway, testConfig } from "../support/test-gateway.ts";

let cluster: TestCluster;
let down: Receiver;
let gw: TestGateway;
let ops: OpsEndpoint;

beforeAll(async () => {
  cluster = await startTestCluster();
  down = await startReceiver({ fallback: 500 });
  gw = await startTestGateway(
    testConfig({
      redis: { cluster: { nodes: cluster.seeds } },
      recovery: { interval_ms: 300, stale_after_ms: 2000 },
      outbound: { allow_private: true, timeout_ms: 2000 },
      operational: { flush_ms: 20 },
      dispatch: {
        retry: { base_ms: 10, max_ms: 20, max_attempts: 1, max_elapsed_ms: 10_000 },
        breaker: { failures: 1000, open_ms: 500, max_open_ms: 2000 },
      },
      sinks: { forward: { type: "http", url: `${down.url}/in` } },
      sources: { shop: { verify: { type: "none" }, sinks: ["forward"] } },
    }),
    { recovery: { intervalMs: 300 } },
  );
  ops = await opsEndpoint(gw);
}, 60_000);

afterAll(async () => {
  await gw?.stop();
  await ops?.rx.close();
  await down?.close();
  await cluster?.stop();
});

it("a hook dying at its sink on a cluster: its hook.dead fact arrives, the outbox and its mark gone", async () => {
  const hooks = await Promise.all(
    Array.from({ length: 8 }, (_, n) => sendHook(gw, "shop", JSON.stringify({ n }))),
  );
  await eventually(() => ops.of("switchyard.hook.dead").length === hooks.length, 20_000, "every hook.dead");
  expect(
    ops
      .of("switchyard.hook.dead")
      .map((e) => e.data.hook_id)
      .sort(),
  ).toEqual([...hooks].sort());
  const keys = gw.gateway.keys;
  await eventually(async () => (await gw.redis.scard(keys.opsDirty)) === 0, 10_000, "no outbox marked");
  for (const b of keys.buckets) expect(await gw.redis.hlen(keys.opsOutbox(keys.bucketTag(b)))).toBe(0);
});

it("a fact in an endpoint's own tag that nobody marked is published by the sweep", async () => {
  const keys = gw.gateway.keys;
  const outbox = keys.opsOutbox(`{${keys.prefix}:ep:${ops.id}}`);
  const id = operationalEventId("switchyard.breaker.opened", ops.id, 1);
  await gw.redis.hset(
    outbox,
    id,
    JSON.stringify({ type: "switchyard.breaker.opened", at: Date.now(), data: { endpoint_id: ops.id } }),
  );
  await eventually(() => ops.events().some((e) => e.id === id), 20_000, "the swept fact");
  expect(await gw.redis.hlen(outbox)).toBe(0);
});

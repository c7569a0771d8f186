// The breaker's operational facts on real Redis, at the script: one fact per change, so a result recorded
// twice (a retried call) records one; a re-open after a failed probe is no new fact (one outage, one
// opened and one closed), so a target that stays down cannot raise a stream of them.
import { afterAll, afterEach, expect, it } from "vitest";
import { SharedBreaker } from "../../src/delivery/shared-breaker.ts";
import { Keys } from "../../src/store/keys.ts";
import { OpsOutbox } from "../../src/store/ops-outbox.ts";
import { REDIS_URL } from "../support/test-gateway.ts";
import { Redis } from "ioredis";

const redis = new Redis(REDIS_URL);
const subscriber = new Redis(REDIS_URL);
const prefix = `breaker-facts-${process.pid}-${Date.now()}`;
const keys = new Keys(prefix);

afterAll(() => {
  redis.disconnect();
  subscriber.disconnect();
});

afterEach(async () => {
  const found = await redis.keys(`{${prefix}:*`);
  if (found.length > 0) await redis.del(...found);
});

it("records breaker.opened once per outage and breaker.closed once, with the tenant given", async () => {
  const outbox = new OpsOutbox(redis, keys);
  let now = 1_000_000;
  const breaker = new SharedBreaker({
    redis,
    subscriber,
    keyOf: (id) => keys.endpointGate(id, "breaker"),
    channel: `${prefix}:changes`,
    config: { failures: 1, open_ms: 50, max_open_ms: 100 },
    probeLeaseMs: 1000,
    refreshMs: 0,
    clock: () => now,
    facts: { outbox, kind: "endpoint" },
  });
  const box = outbox.outboxOf(keys.endpointGate("ep_x", "breaker"));
  const entries = async () =>
    Object.entries(await redis.hgetall(box)).map(([id, json]) => ({ id, ...JSON.parse(json) }));

  expect((await breaker.record("ep_x", "failure", false, "acme")).changed).toBe(true);
  // The same failure recorded again (a retry of the call): the breaker is open already, nothing new.
  expect((await breaker.record("ep_x", "failure", false, "acme")).changed).toBe(false);
  expect(await entries()).toHaveLength(1);
  const [opened] = await entries();
  expect(opened).toMatchObject({
    type: "switchyard.breaker.opened",
    tenant: "acme",
    data: { target: { kind: "endpoint", id: "ep_x" }, tenant: "acme", state: "open", open_period_ms: 50 },
  });
  expect(opened?.id).toMatch(/^op:breaker\.opened:endpoint:ep_x:\d+-\d+$/);
  expect(await redis.sismember(keys.opsDirty, box)).toBe(1);

  // Probes fail twice (re-opens: no fact), then one succeeds (closed: one fact).
  for (const result of ["failure", "failure", "success"] as const) {
    await new Promise((r) => setTimeout(r, 120));
    now += 1000;
    const gate = await breaker.gate("ep_x");
    expect(gate).toMatchObject({ pass: true, probe: true });
    await breaker.record("ep_x", result, true, "acme");
  }
  const types = (await entries()).map((e) => e.type).sort();
  expect(types).toEqual(["switchyard.breaker.closed", "switchyard.breaker.opened"]);
  const closed = (await entries()).find((e) => e.type === "switchyard.breaker.closed");
  expect(closed?.data).toMatchObject({ state: "closed", open_period_ms: 100 });
  await breaker.close();
});

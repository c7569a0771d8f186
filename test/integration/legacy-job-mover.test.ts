// A deployment moving to the ledger engine (an upgrade, or a switch of dispatch.engine): the BullMQ
// delivery jobs the older engine left, or that its processes still add during a rolling upgrade, are
// moved onto ledger queues by the new dispatch processes: waiting ones run at once, a delayed one at
// its time, a job of a finished row is dropped, and the BullMQ queue ends empty.
import { Queue } from "bullmq";
import { afterEach, expect, it } from "vitest";
import type { Config } from "../../src/config/schema.ts";
import { sinkDeliveryId } from "../../src/domain/hook.ts";
import type { HookId } from "../../src/domain/ids.ts";
import { sendHook, sinkState, waitForState } from "../support/hooks.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";
import { type TestGateway, eventually, startTestGateway, testConfig } from "../support/test-gateway.ts";

const open: TestGateway[] = [];
const receivers: Receiver[] = [];
afterEach(async () => {
  for (const gw of open.splice(0).reverse()) await gw.stop();
  await Promise.all(receivers.splice(0).map((rx) => rx.close()));
});

function config(rx: Receiver, engine: "bullmq" | "ledger", prefix?: string): Config {
  const c = testConfig({
    dispatch: { engine },
    sinks: { web: { type: "http", url: `${rx.url}/in` } },
    sources: { demo: { verify: { type: "none" }, sinks: ["web"] } },
  });
  return prefix ? { ...c, redis: { ...c.redis, prefix } } : c;
}

async function gateway(c: Config, roles: ("api" | "dispatch" | "recovery")[]): Promise<TestGateway> {
  const gw = await startTestGateway(c, { roles });
  open.push(gw);
  return gw;
}

it("moves the older engine's waiting and delayed jobs onto ledger queues and delivers them", async () => {
  const rx = await startReceiver();
  receivers.push(rx);
  // The older engine's web process: each hook's row with its BullMQ job, no worker yet.
  const old = await gateway(config(rx, "bullmq"), ["api"]);
  const queue = new Queue("sink-web", {
    connection: old.redis,
    prefix: old.gateway.keys.queuePrefix("sink-web"),
  });
  try {
    const waiting = await Promise.all([1, 2, 3].map((n) => sendHook(old, "demo", JSON.stringify({ n }))));
    const later = await sendHook(old, "demo", JSON.stringify({ n: "later" }));
    const laterId = sinkDeliveryId(later as HookId, "web");
    // Its job waits for a retry's time, as a BullMQ retry would.
    await queue.remove(laterId);
    const runAt = Date.now() + 1500;
    await queue.add("deliver", { p: later }, { jobId: laterId, delay: 1500 });
    // A job whose row is gone (expired, say): dropped, never delivered.
    await queue.add("deliver", { p: "hk_gone" }, { jobId: "dl_gone0" });
    expect(await queue.getJobCountByTypes("wait", "delayed")).toBe(5);

    const ledger = await gateway(config(rx, "ledger", old.config.redis.prefix), ["dispatch"]);
    for (const id of waiting) await waitForState(ledger, id, "web", "delivered");
    const delivered = await waitForState(ledger, later, "web", "delivered", 10_000);
    expect(delivered.attempts).toBe(1);
    expect(delivered.first_attempt_at).toBeGreaterThanOrEqual(runAt);
    expect(rx.requests).toHaveLength(4);
    await eventually(async () => (await queue.getJobCountByTypes("wait", "delayed", "paused")) === 0);
    expect(await sinkState(ledger, "hk_gone", "web")).toBeUndefined();
  } finally {
    await queue.close();
  }
});

it("moves a job an older process adds while the ledger engine runs (a rolling upgrade)", async () => {
  const rx = await startReceiver();
  receivers.push(rx);
  const old = await gateway(config(rx, "bullmq"), ["api"]);
  await gateway(config(rx, "ledger", old.config.redis.prefix), ["dispatch"]);
  // The mover looks again every 10 s: the older web process's hook is delivered within that.
  const id = await sendHook(old, "demo", JSON.stringify({ n: "rolling" }));
  await waitForState(old, id, "web", "delivered", 15_000);
});

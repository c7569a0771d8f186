// The ledger engine's stalled check: a worker process SIGKILLed mid-send leaves its row sending under a
// lease; another dispatch process (no recovery role anywhere, so no recovery tick) queues the row again
// within about dispatch.lock_ms of the lease lapsing, and delivers it.
import { afterEach, expect, it } from "vitest";
import { sendHook, sinkState, waitForState } from "../support/hooks.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";
import { type TestGateway, eventually, startTestGateway, testConfig } from "../support/test-gateway.ts";
import { killWorkerProcesses, startWorkerProcess, waitForWorkers } from "../support/worker-process.ts";

const LOCK_MS = 2000;
const open: TestGateway[] = [];
const receivers: Receiver[] = [];
afterEach(async () => {
  await killWorkerProcesses();
  for (const gw of open.splice(0).reverse()) await gw.stop();
  await Promise.all(receivers.splice(0).map((rx) => rx.close()));
});

it("regression: a SIGKILLed worker's delivery is taken back within about lock_ms, with no recovery tick", async () => {
  const rx = await startReceiver({ script: ["hang"], fallback: 200 });
  receivers.push(rx);
  const config = testConfig({
    dispatch: { engine: "ledger", lock_ms: LOCK_MS, attempt_timeout_ms: 60_000 },
    // A tick would come far too late to be what takes the row back.
    recovery: { interval_ms: 600_000, stale_after_ms: 600_000 },
    sinks: { web: { type: "http", url: `${rx.url}/in`, timeout_ms: 60_000 } },
    sources: { demo: { verify: { type: "none" }, sinks: ["web"] } },
  });
  const api = await startTestGateway(config, { roles: ["api"] });
  open.push(api);
  const first = startWorkerProcess(config, { roles: "dispatch" });
  await waitForWorkers(api, "sink-web", 1);
  const id = await sendHook(api, "demo", JSON.stringify({ n: 1 }));
  await rx.waitForRequests(1);
  expect((await sinkState(api, id, "web"))?.row_state).toBe("sending");
  first.child.kill("SIGKILL");
  await first.exited;
  const killedAt = Date.now();
  startWorkerProcess(config, { roles: "dispatch" });
  const delivered = await waitForState(api, id, "web", "delivered", 15_000);
  // The lease (lock_ms) lapses, then a sweep every lock_ms / 2 finds it: well under a recovery tick.
  expect(Date.now() - killedAt).toBeLessThan(4 * LOCK_MS + 3000);
  expect(delivered.attempts).toBe(2);
  await eventually(() => rx.requests.length >= 2);
});

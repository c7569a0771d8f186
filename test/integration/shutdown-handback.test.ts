// regression: an attempt cancelled by shutdown was a transient failure (an attempt spent, a breaker
// count, and on the last attempt a dead letter "worker shutting down"). It is handed back unattempted:
// the row is pending again with its attempt count unchanged, and the next worker sends it.
import { afterEach, expect, it } from "vitest";
import { sendHook, sinkState } from "../support/hooks.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";
import { type TestGateway, eventually, startTestGateway, testConfig } from "../support/test-gateway.ts";

let api: TestGateway | undefined;
let rx: Receiver | undefined;
afterEach(async () => {
  await api?.stop();
  await rx?.close();
});

it("regression: an attempt cancelled by shutdown spends an attempt and can dead-letter the hook", async () => {
  rx = await startReceiver({ script: ["hang"], fallback: 200 });
  const config = testConfig({
    dispatch: {
      attempt_timeout_ms: 20_000,
      retry: { max_attempts: 1, base_ms: 10, max_ms: 20, max_elapsed_ms: 60_000 },
    },
    sinks: { out: { type: "http", url: `${rx.url}/in`, timeout_ms: 20_000 } },
    sources: { src: { verify: { type: "none" }, sinks: ["out"] } },
  });
  api = await startTestGateway(config, { roles: ["api"] });
  const worker = await startTestGateway(config, { roles: ["dispatch"], graceMs: 300 });
  const id = await sendHook(api, "src", '{"n":1}');
  await rx.waitForRequests(1, 10_000); // mid-attempt: the receiver hangs
  await worker.gateway.stop(); // the grace runs out: the attempt is cancelled
  const row = await sinkState(api, id, "out");
  // max_attempts is 1: counted as an attempt, this would be dead.
  expect(row).toMatchObject({ state: "pending", attempts: 0 });

  // The next worker sends it, as its first attempt.
  const next = await startTestGateway(config, { roles: ["dispatch"] });
  try {
    await eventually(
      async () => (await sinkState(api!, id, "out"))?.state === "delivered",
      15_000,
      "delivered",
    );
    expect((await sinkState(api, id, "out"))?.attempts).toBe(1);
    expect(rx.requests).toHaveLength(2);
  } finally {
    await next.gateway.stop();
  }
}, 60_000);

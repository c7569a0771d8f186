// SIGTERM semantics, in process: new hooks are refused while in-flight attempts finish, then stop resolves.
import { afterEach, expect, it } from "vitest";
import { sendHook, sinkState } from "../support/hooks.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";
import { type TestGateway, startTestGateway, testConfig } from "../support/test-gateway.ts";

let gw: TestGateway | undefined;
let rx: Receiver | undefined;
afterEach(async () => {
  await gw?.stop();
  await rx?.close();
});

it("refuses new hooks and lets an in-flight attempt finish before stopping", async () => {
  rx = await startReceiver({ script: [{ status: 200, delayMs: 800 }] });
  gw = await startTestGateway(
    testConfig({
      sinks: { out: { type: "http", url: `${rx.url}/in` } },
      sources: { src: { verify: { type: "none" }, sinks: ["out"] } },
    }),
  );
  const id = await sendHook(gw, "src", "{}");
  await rx.waitForRequests(1);

  const stopping = gw.gateway.stop();
  const late = await fetch(`${gw.url}/webhooks/src`, { method: "POST", body: '{"late":1}' }).then(
    (r) => r.status,
    () => "refused",
  );
  expect([503, "refused"]).toContain(late);

  await stopping;
  // The attempt that was running when stop began completed and was recorded.
  expect((await sinkState(gw, id, "out"))?.state).toBe("delivered");
  expect(rx.requests).toHaveLength(1);
});

// SIGTERM semantics, in process: new hooks are refused while in-flight attempts finish, then stop resolves.
import { afterEach, expect, it } from "vitest";
import { sendHook, sinkState } from "../support/hooks.ts";
import { type ReceiverGateway, startReceiverGateway } from "../support/receiver-gateway.ts";

let env: ReceiverGateway | undefined;
afterEach(async () => {
  await env?.stop();
});

it("refuses new hooks and lets an in-flight attempt finish before stopping", async () => {
  env = await startReceiverGateway({ script: [{ status: 200, delayMs: 800 }] });
  const { gw, rx } = env;
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

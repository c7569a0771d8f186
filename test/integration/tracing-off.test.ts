// With tracing off, a hook is stored and delivered exactly as before tracing existed: its record holds no
// trace context, and the HTTP sink sends no traceparent, even when the provider sent one (it stays among
// the hook's own headers, for queue consumers that want it). OTEL_TRACES_EXPORTER=none wins over an
// endpoint.
import { afterEach, expect, it } from "vitest";
import type { HookId } from "../../src/domain/ids.ts";
import { sendHook, waitForState } from "../support/hooks.ts";
import { type ReceiverGateway, startReceiverGateway } from "../support/receiver-gateway.ts";

let setup: ReceiverGateway | undefined;
afterEach(async () => {
  await setup?.stop();
  setup = undefined;
});

const INCOMING = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

for (const [what, otelEnv] of [
  ["no OTEL_* variable", {}],
  [
    "OTEL_TRACES_EXPORTER=none beside an endpoint",
    { OTEL_TRACES_EXPORTER: "none", OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9" },
  ],
] as const) {
  it(`with ${what}: no trace context stored, no traceparent sent`, async () => {
    setup = await startReceiverGateway({ gateway: { otelEnv } });
    const { gw, rx } = setup;
    const id = await sendHook(gw, "src", "{}", { traceparent: INCOMING });
    await waitForState(gw, id, "out", "delivered");

    const stored = await gw.redis.hgetall(gw.gateway.keys.hook(id as HookId));
    expect(Object.keys(stored).sort()).toEqual(["body", "hdr", "live", "meta"]);
    expect(Object.keys(JSON.parse(stored.meta!) as object)).not.toContain("tp");
    expect((JSON.parse(stored.hdr!) as Record<string, string>).traceparent).toBe(INCOMING);
    const [request] = await rx.waitForRequests(1);
    expect(request!.headers.traceparent).toBeUndefined();
  });
}

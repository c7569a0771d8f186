// The most common test setup: a scriptable receiver, and a gateway whose source `src` delivers to one
// http sink `out` pointing at it.
import type { GatewayOptions } from "../../src/runtime/gateway.ts";
import { type Receiver, type Reply, startReceiver } from "./receiver.ts";
import { type TestGateway, startTestGateway, testConfig } from "./test-gateway.ts";

export interface ReceiverGatewayOptions {
  readonly script?: Reply[];
  readonly fallback?: Reply;
  /** Overrides of `dispatch` (merged over the test defaults). */
  readonly dispatch?: Record<string, unknown>;
  /** Extra options of the `out` sink. */
  readonly sink?: Record<string, unknown>;
  readonly gateway?: GatewayOptions;
}

export interface ReceiverGateway {
  readonly gw: TestGateway;
  readonly rx: Receiver;
  /** Stop the gateway (keys removed), then the receiver. */
  stop(): Promise<void>;
}

export async function startReceiverGateway(opts: ReceiverGatewayOptions = {}): Promise<ReceiverGateway> {
  const rx = await startReceiver({ script: opts.script ?? [], fallback: opts.fallback ?? 200 });
  const gw = await startTestGateway(
    testConfig({
      dispatch: opts.dispatch,
      sinks: { out: { type: "http", url: `${rx.url}/in`, ...opts.sink } },
      sources: { src: { verify: { type: "none" }, sinks: ["out"] } },
    }),
    opts.gateway,
  );
  return {
    gw,
    rx,
    stop: async () => {
      await gw.stop();
      await rx.close();
    },
  };
}

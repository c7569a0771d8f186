// The stage the portal's browser test and its screenshot script share: a gateway whose endpoints may
// point at loopback, a scripted receiver, an event catalog, another tenant's endpoint (which the portal
// must never show), and magic links minted through the admin API over a real socket.
import { admin } from "../integration/admin-fixtures.ts";
import { type Receiver, type Reply, startReceiver } from "./receiver.ts";
import { ADMIN_TOKEN, type TestGateway, startTestGateway, testConfig } from "./test-gateway.ts";

export const TENANT = "acme";
export const OTHER_TENANT = "globex";

export interface PortalScene {
  readonly gw: TestGateway;
  readonly rx: Receiver;
  /** The other tenant's endpoint id. */
  readonly foreignEndpoint: string;
  /** A fresh link into the portal for TENANT. */
  link(opts?: { readOnly?: boolean; ttlS?: number }): Promise<string>;
  stop(): Promise<void>;
}

export async function startPortalScene(script: Reply[]): Promise<PortalScene> {
  const rx = await startReceiver({ script, fallback: 200 });
  const gw = await startTestGateway(
    testConfig({
      outbound: { allow_private: true },
      sinks: { log: { type: "log" } },
      sources: { src: { verify: { type: "none" }, sinks: ["log"], allow_non_durable: true } },
    }),
  );
  try {
    for (const [name, description] of [
      ["order.paid", "An order was paid in full"],
      ["order.refunded", "Some or all of an order was refunded"],
      ["customer.created", "A customer signed up"],
    ]) {
      const res = await admin(gw, "POST", "/v1/event-types", { body: { name, description } });
      if (res.status !== 201 && res.status !== 200)
        throw new Error(`event type ${name}: ${res.status} ${JSON.stringify(res.json)}`);
    }
    const foreign = await admin(gw, "POST", "/v1/endpoints", {
      body: { url: `${rx.url}/globex`, event_types: ["*"], tenant: OTHER_TENANT },
    });
    if (foreign.status !== 201) throw new Error(`foreign endpoint: ${foreign.status}`);
    return {
      gw,
      rx,
      foreignEndpoint: foreign.json.id as string,
      link: async (opts = {}) => {
        const res = await fetch(`${gw.url}/v1/portal/sessions`, {
          method: "POST",
          headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
          body: JSON.stringify({
            tenant: TENANT,
            read_only: opts.readOnly ?? false,
            ttl_s: opts.ttlS ?? 900,
          }),
        });
        if (res.status !== 201) throw new Error(`portal link: ${res.status} ${await res.text()}`);
        return ((await res.json()) as { url: string }).url;
      },
      stop: async () => {
        await gw.stop();
        await rx.close();
      },
    };
  } catch (err) {
    await gw.stop();
    await rx.close();
    throw err;
  }
}

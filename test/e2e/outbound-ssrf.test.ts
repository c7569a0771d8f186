// The SSRF guard on outbound endpoints: internal destinations are refused at registration (400), and a
// host name that resolved to a public address at registration but resolves to 127.0.0.1 at send time
// (DNS rebinding) is refused at connect time: the delivery ends dead, permanent, and nothing arrives.
import type { LookupAddress } from "node:dns";
import { afterEach, expect, it } from "vitest";
import { admin } from "../integration/admin-fixtures.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";
import { type TestGateway, eventually, startTestGateway, testConfig } from "../support/test-gateway.ts";

let gw: TestGateway | undefined;
let rx: Receiver | undefined;
afterEach(async () => {
  await gw?.stop();
  await rx?.close();
});

it("refuses internal URLs at registration, and a rebinding name at send time", async () => {
  rx = await startReceiver({ fallback: 200 });
  let calls = 0;
  // The first lookup (registration) says public; every later one (connect time) says loopback.
  const lookup = async (): Promise<LookupAddress[]> =>
    calls++ === 0 ? [{ address: "93.184.216.34", family: 4 }] : [{ address: "127.0.0.1", family: 4 }];
  gw = await startTestGateway(
    testConfig({
      outbound: { allow_private: false, timeout_ms: 2000 },
      sinks: { log: { type: "log" } },
      sources: { src: { verify: { type: "none" }, sinks: ["log"], allow_non_durable: true } },
    }),
    { outboundLookup: lookup },
  );
  for (const url of [
    `http://127.0.0.1:${rx.port}/`,
    "http://10.1.2.3/",
    "http://169.254.169.254/latest/meta-data",
    `http://[::1]:${rx.port}/`,
    `http://[::ffff:127.0.0.1]:${rx.port}/`,
  ]) {
    const res = await admin(gw, "POST", "/v1/endpoints", { body: { url, event_types: ["*"] } });
    expect([url, res.status]).toEqual([url, 400]);
  }
  expect(calls).toBe(0); // literals are judged without a lookup

  const created = await admin(gw, "POST", "/v1/endpoints", {
    body: { url: `http://rebind.example:${rx.port}/hook`, event_types: ["*"] },
  });
  expect(created.status).toBe(201);
  await admin(gw, "POST", "/v1/events", { body: { id: "ssrf-1", type: "t.x", payload: {} } });
  const row = await eventually(
    async () => {
      const [r] = (await admin(gw!, "GET", "/v1/events/ssrf-1/deliveries")).json.data as {
        state: string;
        error_class: string;
        last_error: string;
      }[];
      return r?.state === "dead" ? r : undefined;
    },
    10_000,
    "the delivery to die",
  );
  expect(row.error_class).toBe("permanent");
  expect(row.last_error).toMatch(/SSRF guard/);
  // What the name resolved to is for the log: the row is the endpoint owner's to read.
  expect(row.last_error).not.toMatch(/127\.0\.0\.1|loopback/);
  expect(rx.requests).toHaveLength(0);
  expect(calls).toBeGreaterThanOrEqual(2);
});

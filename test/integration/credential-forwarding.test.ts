// credentials_forwarded: the Authorization, Cookie and Proxy-Authorization a provider used to reach the
// gateway are its credentials, not the hook's: queue messages (and the stored record they are built
// from) went out with them while the admin API masked them. They are dropped unless the source says
// `forward_credentials: true`; an http sink never sends inbound headers on.
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { QueueMessageV1 } from "../../src/sinks/queue-message.ts";
import { RABBIT_URL, type RabbitFixture, rabbitFixture } from "../support/rabbit.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";
import { type TestGateway, eventually, startTestGateway, testConfig } from "../support/test-gateway.ts";

const CREDENTIALS = {
  authorization: "Bearer provider-credential-0123",
  cookie: "session=provider-cookie-0123",
  "proxy-authorization": "Basic cHJveHk6c2VjcmV0",
};

let gw: TestGateway;
let rx: Receiver;
let fx: RabbitFixture;
beforeAll(async () => {
  fx = await rabbitFixture("credentials");
  await fx.declareExchange();
  await fx.bindQueue();
  rx = await startReceiver({ script: [], fallback: 200 });
  gw = await startTestGateway(
    testConfig({
      sinks: {
        bus: { type: "amqp", url: RABBIT_URL, exchange: fx.exchange },
        out: { type: "http", url: `${rx.url}/in` },
      },
      sources: {
        plain: { verify: { type: "none" }, sinks: ["bus", "out"] },
        opted: { verify: { type: "none" }, sinks: ["bus"], forward_credentials: true },
      },
    }),
    { roles: ["api", "dispatch"] },
  );
});
afterAll(async () => {
  await gw?.stop();
  await rx?.close();
  await fx?.cleanup();
});

function post(source: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${gw.url}/webhooks/${source}`, { method: "POST" }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    for (const [name, value] of Object.entries({ ...CREDENTIALS, "x-provider-event": "e1" }))
      req.setHeader(name, value);
    req.end(JSON.stringify({ source }));
  });
}

describe("credentials_forwarded", () => {
  it("drops inbound credentials from what sinks receive unless the source opts in", async () => {
    expect(await post("plain")).toBe(202);
    expect(await post("opted")).toBe(202);
    await eventually(async () => ((await fx.count()) >= 2 ? true : undefined), 10_000, "two queue messages");
    await rx.waitForRequests(1);
    const messages = (await fx.drain()).map((m) => JSON.parse(m.content.toString()) as QueueMessageV1);
    const bySource = Object.fromEntries(messages.map((m) => [m.source, m.headers]));

    expect(bySource.plain).toMatchObject({ "x-provider-event": "e1" });
    for (const name of Object.keys(CREDENTIALS)) expect(bySource.plain, name).not.toHaveProperty(name);
    // Opted in: the provider's Authorization and Cookie go on (Proxy-Authorization is hop-by-hop).
    expect(bySource.opted).toMatchObject({
      authorization: CREDENTIALS.authorization,
      cookie: CREDENTIALS.cookie,
    });
    expect(bySource.opted).not.toHaveProperty("proxy-authorization");

    const sent = rx.requests[0]!.headers;
    for (const name of Object.keys(CREDENTIALS)) expect(sent, name).not.toHaveProperty(name);
  });
});

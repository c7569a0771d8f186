// A slow client must not hold shutdown: the server times out requests whose bytes never finish (also
// while it drains), roles stop in parallel, and at the deadline every remaining connection is cut.
import { type Socket, connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { sendHook, sinkState } from "../support/hooks.ts";
import { type ReceiverGateway, startReceiverGateway } from "../support/receiver-gateway.ts";
import { type TestGateway, startTestGateway, testConfig } from "../support/test-gateway.ts";

let gw: TestGateway | undefined;
let env: ReceiverGateway | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await gw?.stop();
  await env?.stop();
  gw = undefined;
  env = undefined;
});

/** Headers and 3 of the 100 announced body bytes, then silence. Resolves once connected and written. */
async function slowloris(port: number, path = "/webhooks/open"): Promise<{ closed: Promise<void> }> {
  const socket = connect(port, "127.0.0.1");
  sockets.push(socket);
  socket.on("error", () => undefined);
  socket.resume(); // read what the server answers, so its close reaches us
  const closed = new Promise<void>((r) => socket.once("close", () => r()));
  await new Promise<void>((r) => socket.once("connect", () => r()));
  socket.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc`);
  // Let the server parse the headers and start reading the body.
  await new Promise((r) => setTimeout(r, 200));
  return { closed };
}

function openSource(http: Record<string, unknown>) {
  return testConfig({
    http,
    sinks: { a: { type: "http", url: "http://127.0.0.1:9/a" } },
    sources: { open: { verify: { type: "none" }, sinks: ["a"] } },
  });
}

describe("slowloris_holds_shutdown", () => {
  it("a client that sent headers and 3 of 100 body bytes is timed out, even while the server drains", async () => {
    gw = await startTestGateway(openSource({ request_timeout_ms: 1000, headers_timeout_ms: 500 }), {
      roles: ["api"],
      // Far away: only the request timeout can end this connection in time.
      graceMs: 20_000,
    });
    const client = await slowloris(gw.gateway.port!);
    const started = Date.now();
    await gw.gateway.stop();
    await client.closed;
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("a client that sent only part of its headers is timed out too", async () => {
    gw = await startTestGateway(openSource({ request_timeout_ms: 1000, headers_timeout_ms: 500 }), {
      roles: ["api"],
      graceMs: 20_000,
    });
    const socket = connect(gw.gateway.port!, "127.0.0.1");
    sockets.push(socket);
    socket.on("error", () => undefined);
    socket.resume();
    const closed = new Promise<void>((r) => socket.once("close", () => r()));
    socket.write("POST /webhooks/open HTTP/1.1\r\nHost: x\r\n");
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    await gw.gateway.stop();
    await closed;
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("at the deadline every remaining connection is destroyed, while the dispatcher's grace runs alongside", async () => {
    env = await startReceiverGateway({
      script: [{ status: 200, delayMs: 800 }],
      gateway: { graceMs: 1500 },
    });
    const { gw: g, rx } = env;
    const id = await sendHook(g, "src", "{}");
    await rx.waitForRequests(1);
    // The default request timeout (15 s) is far past the deadline: only the deadline can cut this one.
    const client = await slowloris(g.gateway.port!, "/webhooks/src");
    const started = Date.now();
    await g.gateway.stop();
    await client.closed;
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(1400);
    expect(elapsed).toBeLessThan(4000);
    // The in-flight attempt finished during the same window and was recorded.
    expect((await sinkState(g, id, "out"))?.state).toBe("delivered");
  });

  it("closes an idle keep-alive connection at once", async () => {
    gw = await startTestGateway(openSource({}), { roles: ["api"], graceMs: 20_000 });
    const socket = connect(gw.gateway.port!, "127.0.0.1");
    sockets.push(socket);
    socket.on("error", () => undefined);
    const closed = new Promise<void>((r) => socket.once("close", () => r()));
    const answered = new Promise<void>((r) => socket.once("data", () => r()));
    socket.write("POST /webhooks/open HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}");
    await answered;
    const started = Date.now();
    await gw.gateway.stop();
    await closed;
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe("http.max_connections", () => {
  it("drops connections over the cap", async () => {
    gw = await startTestGateway(openSource({ max_connections: 1 }), { roles: ["api"] });
    const open = (): Promise<{ socket: Socket; closed: Promise<void> }> =>
      new Promise((resolve) => {
        const socket = connect(gw!.gateway.port!, "127.0.0.1", () => resolve({ socket, closed }));
        sockets.push(socket);
        socket.on("error", () => undefined);
        socket.resume();
        const closed = new Promise<void>((r) => socket.once("close", () => r()));
      });
    const first = await open();
    const second = await open();
    await second.closed; // dropped by the server at once
    expect(first.socket.destroyed).toBe(false);
  });
});

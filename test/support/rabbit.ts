// RabbitMQ helpers for integration tests: a throwaway exchange and queue per test, reading back what a sink
// published, and cutting a sink's connection from the broker side. Every name is random so test files can run
// in parallel against the one broker. A delaying TCP proxy stands in for a real network where tests need
// publishes to stay in flight, or a socket to die without a goodbye.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { connect, createServer } from "node:net";
import type { AddressInfo, Socket } from "node:net";
import { promisify } from "node:util";
import amqp from "amqplib";
import type { Channel, ChannelModel, ConsumeMessage } from "amqplib";

const run = promisify(execFile);

export const RABBIT_URL = process.env.RABBIT_URL ?? "amqp://guest:guest@127.0.0.1:5672";

/** A unique name for exchanges, queues and sinks: `sy-test-<label>-<random>`. */
export function uniqueName(label: string): string {
  return `sy-test-${label}-${randomBytes(5).toString("hex")}`;
}

/** A test's own exchange (and optionally a queue bound to it), deleted by `cleanup`. */
export interface RabbitFixture {
  readonly exchange: string;
  readonly queue: string;
  /** The helper's own channel, for declaring or deleting things mid-test. */
  readonly channel: Channel;
  /** Declare the exchange (topic, not durable). Idempotent. */
  declareExchange(): Promise<void>;
  /** Declare the queue and bind it to the exchange with `pattern`. */
  bindQueue(pattern?: string): Promise<void>;
  /** How many messages sit on the queue now. */
  count(): Promise<number>;
  /** Take every message on the queue off it (acknowledged), in order. */
  drain(timeoutMs?: number): Promise<ConsumeMessage[]>;
  cleanup(): Promise<void>;
}

/** Open a fixture. Nothing is declared until `declareExchange` / `bindQueue`. */
export async function rabbitFixture(label: string): Promise<RabbitFixture> {
  const model: ChannelModel = await amqp.connect(RABBIT_URL);
  model.on("error", () => undefined);
  const channel = await model.createChannel();
  channel.on("error", () => undefined);
  const exchange = uniqueName(`${label}-x`);
  const queue = uniqueName(`${label}-q`);

  return {
    exchange,
    queue,
    channel,
    async declareExchange() {
      await channel.assertExchange(exchange, "topic", { durable: false, autoDelete: false });
    },
    async bindQueue(pattern = "#") {
      await channel.assertQueue(queue, { durable: false, autoDelete: false });
      await channel.bindQueue(queue, exchange, pattern);
    },
    async count() {
      return (await channel.checkQueue(queue)).messageCount;
    },
    async drain(timeoutMs = 10_000) {
      const expected = (await channel.checkQueue(queue)).messageCount;
      const got: ConsumeMessage[] = [];
      if (expected === 0) return got;
      await channel.prefetch(500);
      let consumerTag = "";
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`drained ${got.length} of ${expected} messages in ${timeoutMs} ms`)),
          timeoutMs,
        );
        channel
          .consume(queue, (msg) => {
            if (!msg) return;
            got.push(msg);
            channel.ack(msg);
            if (got.length >= expected) {
              clearTimeout(timer);
              resolve();
            }
          })
          .then((r) => {
            consumerTag = r.consumerTag;
          }, reject);
      });
      await channel.cancel(consumerTag);
      return got;
    },
    async cleanup() {
      try {
        await channel.deleteQueue(queue);
        await channel.deleteExchange(exchange);
      } finally {
        await model.close().catch(() => undefined);
      }
    },
  };
}

/** Broker-side ids (`pid`) of the connections whose `connection_name` client property is `connectionName`. */
export async function connectionPids(connectionName: string): Promise<string[]> {
  const { stdout } = await run("rabbitmqctl", [
    "-q",
    "list_connections",
    "--no-table-headers",
    "pid",
    "client_properties",
  ]);
  const needle = `{"connection_name","${connectionName}"}`;
  return stdout
    .split("\n")
    .filter((line) => line.includes(needle))
    .map((line) => line.split("\t")[0])
    .filter((pid): pid is string => pid !== undefined && pid.length > 0);
}

/** Close one connection from the broker side (connection.close 320 CONNECTION_FORCED). Takes a few 100 ms. */
export async function closeConnection(pid: string, reason = "test"): Promise<void> {
  await run("rabbitmqctl", ["-q", "close_connection", pid, reason]);
}

/** A loopback TCP proxy to the broker: adds latency, or drops every socket at once (a network failure). */
export interface TcpProxy {
  /** `amqp://guest:guest@127.0.0.1:<proxy port>` */
  readonly url: string;
  /** Destroy every proxied socket now, without an AMQP close: the client sees a socket error/end. */
  cutAll(): void;
  close(): Promise<void>;
}

/**
 * Start a proxy to RabbitMQ on a free loopback port. `delayMs` delays broker→client bytes (confirms, closes), so
 * publishes stay unconfirmed long enough for a test to cut a connection with many of them in flight.
 */
export async function rabbitProxy(delayMs = 0): Promise<TcpProxy> {
  const target = new URL(RABBIT_URL);
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(target.port || 5672), target.hostname);
    sockets.add(client).add(upstream);
    const drop = (): void => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
    client.on("data", (chunk: Buffer) => upstream.write(chunk));
    upstream.on("data", (chunk: Buffer) => {
      // Same delay for every chunk, so timers fire in arrival order and the byte stream stays intact.
      if (delayMs > 0) setTimeout(() => client.writable && client.write(chunk), delayMs);
      else client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const auth = `${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`;
  return {
    url: `amqp://${auth}@127.0.0.1:${port}`,
    cutAll() {
      for (const sock of sockets) sock.destroy();
      sockets.clear();
    },
    close() {
      for (const sock of sockets) sock.destroy();
      sockets.clear();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A loopback port nothing listens on: a broker that is down. */
export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, "127.0.0.1", resolve));
  const port = (srv.address() as AddressInfo).port;
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

/** Accepts TCP connections and never says a word: a broker that hangs mid-handshake. */
export async function silentBroker(): Promise<{ readonly url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((sock) => {
    sockets.add(sock);
    sock.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `amqp://guest:guest@127.0.0.1:${(server.address() as AddressInfo).port}`,
    close() {
      for (const sock of sockets) sock.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

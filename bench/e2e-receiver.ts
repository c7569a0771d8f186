// The receiver of bench:e2e and bench:timeline, in its own process: it records, per delivery, when it
// arrived and when its hook was sent (read from the body, see e2e-hooks.ts), plus the Switchyard hook id
// when the delivery names one. Deliveries arrive one of two ways:
//   (no arguments)               a bare node:http server answering 200 to every POST (the http sink)
//   amqp <url> <name> <key>      a consumer (no acks) of queue <name>, bound by routing key <key> to
//                                direct exchange <name>, both declared here and deleted on SIGTERM (the
//                                amqp sink; a body is either the hook itself or Switchyard's queue
//                                message around it, body_base64)
// Either way it serves, on its HTTP port:
//   GET  /report?from=&to=  arrivals within [from, to] (ms since the epoch), and send → arrival
//                           percentiles of the hooks sent within [from, to]
//   GET  /arrivals          [hook id, arrival] of every delivery that named its hook
//   GET  /count, POST /reset
// Prints "ready <port>" on stdout once it listens (and, with amqp, consumes).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import amqp from "amqplib";
import { sentAtOf, wallMs } from "./e2e-hooks.ts";

const CAPACITY = 1_000_000;
let arrived = new Float64Array(CAPACITY);
let sent = new Float64Array(CAPACITY);
let count = 0;
let ids: [string, number][] = [];

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function report(from: number, to: number): Record<string, number> {
  let inWindow = 0;
  const latencies: number[] = [];
  for (let i = 0; i < count; i++) {
    const at = arrived[i]!;
    if (at >= from && at <= to) inWindow++;
    const s = sent[i]!;
    if (s >= from && s <= to) latencies.push(at - s);
  }
  const sorted = Float64Array.from(latencies).sort();
  return {
    count,
    arrivals: inWindow,
    latencies: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: percentile(sorted, 100),
  };
}

function record(at: number, body: Buffer, hookId: unknown): void {
  if (count >= CAPACITY) return;
  arrived[count] = at;
  sent[count] = sentAtOf(body);
  count++;
  if (typeof hookId === "string") ids.push([hookId, at]);
}

const ENVELOPE_BODY = /"body_base64":"([A-Za-z0-9+/]{56})/;

/** The hook inside an AMQP message: the content itself, or the head of Switchyard's body_base64. */
function hookOf(content: Buffer): Buffer {
  if (content[0] === 0x7b && content[1] === 0x22 && content[2] === 0x73) return content; // {"s…
  const m = ENVELOPE_BODY.exec(content.toString("latin1"));
  return m ? Buffer.from(m[1]!, "base64") : content;
}

let onStop: () => Promise<void> = async () => undefined;
let resetBroker: () => Promise<void> = async () => undefined;
const [mode, amqpUrl, name, routingKey] = process.argv.slice(2);
if (mode === "amqp") {
  if (!amqpUrl || !name || !routingKey) throw new Error("usage: e2e-receiver.ts amqp <url> <name> <key>");
  const connection = await amqp.connect(amqpUrl);
  const channel = await connection.createChannel();
  await channel.assertExchange(name, "direct", { durable: false, autoDelete: false });
  await channel.assertQueue(name, { durable: true, autoDelete: false });
  await channel.bindQueue(name, name, routingKey);
  await channel.consume(
    name,
    (msg) => {
      if (msg) record(wallMs(), hookOf(msg.content), msg.properties.headers?.["x-switchyard-id"]);
    },
    { noAck: true },
  );
  resetBroker = async () => void (await channel.purgeQueue(name));
  onStop = async () => {
    await channel.deleteQueue(name).catch(() => undefined);
    await channel.deleteExchange(name).catch(() => undefined);
    await connection.close().catch(() => undefined);
  };
} else if (mode !== undefined) {
  throw new Error(`unknown receiver mode ${mode}`);
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://receiver");
  const json = (value: unknown): void => {
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(value));
  };
  if (req.method === "GET" && url.pathname === "/report")
    return json(report(Number(url.searchParams.get("from")), Number(url.searchParams.get("to"))));
  if (req.method === "GET" && url.pathname === "/arrivals") return json(ids);
  if (req.method === "GET" && url.pathname === "/count") return json({ count });
  if (req.method === "POST" && url.pathname === "/reset") {
    void resetBroker().then(
      () => {
        count = 0;
        ids = [];
        arrived = new Float64Array(CAPACITY);
        sent = new Float64Array(CAPACITY);
        json({ count });
      },
      (err: Error) => res.writeHead(500).end(err.message),
    );
    return;
  }
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    const at = wallMs();
    res.writeHead(200, { "content-length": "0" }).end();
    record(at, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks), req.headers["x-switchyard-id"]);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`ready ${(server.address() as AddressInfo).port}\n`);
});
process.on("SIGTERM", () => {
  server.closeAllConnections();
  server.close(() => void onStop().then(() => process.exit(0)));
});

// The one receiver of the benchmarks: a bare node:http server that answers every delivery the same way
// and counts it, so no scenario carries a receiver of its own. Options pick what a scenario needs:
//   answer       the status (and body) of every answer: 200 by default; 422 refuses each delivery as a
//                permanent failure (bench:memory's dead letters); a content type for an OTLP collector
//   timestamps   keep, per delivery, when it arrived and when its hook was sent (read from the body,
//                e2e/hooks.ts), and the Switchyard hook id when the delivery names one
//   amqp         also take deliveries from RabbitMQ: a consumer (no acks) of queue <name>, bound by
//                <routingKey> to direct exchange <name>, both declared here and deleted on stop (a body
//                is the hook itself or Switchyard's queue message around it, body_base64)
// Besides deliveries (any other request), it serves:
//   GET  /count                 deliveries and bytes since the last reset, and when the last one arrived
//   GET  /wait?target=&timeoutMs=  the same, answered once `target` deliveries have arrived (504 on the
//                               timeout), so a clock stops at the receiver and not at the orchestrator's poll
//   GET  /report?from=&to=      arrivals within [from, to] (ms since the epoch), and send → arrival
//                               percentiles of the hooks sent within it (timestamps)
//   GET  /arrivals              [hook id, arrival] of every delivery that named its hook (timestamps)
//   POST /reset                 forget everything (and purge the AMQP queue)
// Run in a process of its own with receiver-process.ts, or in-process with listenReceiver.
import { type IncomingMessage, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import amqp from "amqplib";
import { sentAtOf, wallMs } from "./e2e/hooks.ts";

export interface ReceiverOptions {
  readonly answer?: { readonly status: number; readonly contentType?: string; readonly body?: string };
  readonly timestamps?: boolean;
  readonly amqp?: { readonly url: string; readonly name: string; readonly routingKey: string };
}

export interface Receiver {
  readonly port: number;
  /** Base URL; HTTP deliveries go to any path under it (`${url}/in`). */
  readonly url: string;
  /** Deliveries since the last reset. */
  count(): number;
  stop(): Promise<void>;
}

const CAPACITY = 1_000_000;
const ENVELOPE_BODY = /"body_base64":"([A-Za-z0-9+/]{56})/;

/** The hook inside an AMQP message: the content itself, or the head of Switchyard's body_base64. */
function hookOf(content: Buffer): Buffer {
  if (content[0] === 0x7b && content[1] === 0x22 && content[2] === 0x73) return content; // {"s…
  const m = ENVELOPE_BODY.exec(content.toString("latin1"));
  return m ? Buffer.from(m[1]!, "base64") : content;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Per-delivery arrival and send times (and hook ids), for the latency report. */
class Timestamps {
  private arrived = new Float64Array(CAPACITY);
  private sent = new Float64Array(CAPACITY);
  private n = 0;
  ids: [string, number][] = [];

  record(at: number, body: Buffer, hookId: unknown): void {
    if (this.n >= CAPACITY) return;
    this.arrived[this.n] = at;
    this.sent[this.n] = sentAtOf(body);
    this.n++;
    if (typeof hookId === "string") this.ids.push([hookId, at]);
  }

  report(count: number, from: number, to: number): Record<string, number> {
    let inWindow = 0;
    const latencies: number[] = [];
    for (let i = 0; i < this.n; i++) {
      const at = this.arrived[i]!;
      if (at >= from && at <= to) inWindow++;
      const s = this.sent[i]!;
      if (s >= from && s <= to) latencies.push(at - s);
    }
    const sorted = Float64Array.from(latencies).sort();
    const [p50, p99, max] = [50, 99, 100].map((p) => percentile(sorted, p));
    return { count, arrivals: inWindow, latencies: sorted.length, p50: p50!, p99: p99!, max: max! };
  }
}

export async function listenReceiver(o: ReceiverOptions = {}): Promise<Receiver> {
  let count = 0;
  let bytes = 0;
  /** Wall-clock time (ms, sub-ms precision) at which `count` last changed. */
  let lastAt = 0;
  let stamps = o.timestamps ? new Timestamps() : undefined;
  const waiters: { target: number; res: ServerResponse; timer: NodeJS.Timeout }[] = [];
  const json = (res: ServerResponse, value: unknown, status = 200): void =>
    void res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
  const counts = (): Record<string, number> => ({ count, bytes, at: lastAt });

  function arrived(at: number, size: number, body: Buffer | undefined, hookId: unknown): void {
    count++;
    bytes += size;
    lastAt = at;
    if (stamps && body) stamps.record(at, body, hookId);
    for (let i = waiters.length - 1; i >= 0; i--) {
      const w = waiters[i]!;
      if (count < w.target) continue;
      waiters.splice(i, 1);
      clearTimeout(w.timer);
      json(w.res, counts());
    }
  }

  let resetBroker = async (): Promise<void> => undefined;
  let closeBroker = async (): Promise<void> => undefined;
  if (o.amqp) {
    const { url, name, routingKey } = o.amqp;
    const connection = await amqp.connect(url);
    const channel = await connection.createChannel();
    await channel.assertExchange(name, "direct", { durable: false, autoDelete: false });
    await channel.assertQueue(name, { durable: true, autoDelete: false });
    await channel.bindQueue(name, name, routingKey);
    await channel.consume(
      name,
      (msg) => {
        if (!msg) return;
        const hook = hookOf(msg.content);
        arrived(wallMs(), msg.content.length, hook, msg.properties.headers?.["x-switchyard-id"]);
      },
      { noAck: true },
    );
    resetBroker = async () => void (await channel.purgeQueue(name));
    closeBroker = async () => {
      await channel.deleteQueue(name).catch(() => undefined);
      await channel.deleteExchange(name).catch(() => undefined);
      await connection.close().catch(() => undefined);
    };
  }

  const answer = o.answer ?? { status: 200 };
  const answerHeaders = {
    ...(answer.contentType ? { "content-type": answer.contentType } : {}),
    "content-length": String(Buffer.byteLength(answer.body ?? "")),
  };
  function control(req: IncomingMessage, res: ServerResponse): boolean {
    const url = new URL(req.url ?? "/", "http://receiver");
    const route = `${req.method} ${url.pathname}`;
    const param = (name: string): number => Number(url.searchParams.get(name));
    if (route === "GET /count") json(res, counts());
    else if (route === "GET /report")
      json(res, (stamps ?? new Timestamps()).report(count, param("from"), param("to")));
    else if (route === "GET /arrivals") json(res, stamps?.ids ?? []);
    else if (route === "GET /wait") {
      const target = param("target");
      if (count >= target) {
        json(res, counts());
        return true;
      }
      const timeoutMs = url.searchParams.has("timeoutMs") ? param("timeoutMs") : 60_000;
      const timer = setTimeout(() => {
        const i = waiters.findIndex((w) => w.res === res);
        if (i >= 0) waiters.splice(i, 1);
        json(res, { ...counts(), timedOut: true }, 504);
      }, timeoutMs);
      waiters.push({ target, res, timer });
    } else if (route === "POST /reset") {
      void resetBroker().then(
        () => {
          [count, bytes, lastAt] = [0, 0, 0];
          if (stamps) stamps = new Timestamps();
          json(res, counts());
        },
        (err: Error) => res.writeHead(500).end(err.message),
      );
    } else return false;
    return true;
  }

  const server = createServer((req, res) => {
    if (control(req, res)) return;
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (stamps) chunks.push(chunk);
    });
    req.on("end", () => {
      const at = wallMs();
      res.writeHead(answer.status, answerHeaders).end(answer.body);
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      arrived(at, size, body, req.headers["x-switchyard-id"]);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    count: () => count,
    stop: async () => {
      for (const w of waiters.splice(0)) clearTimeout(w.timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await closeBroker();
    },
  };
}

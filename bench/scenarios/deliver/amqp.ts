// RabbitMQ side of bench:deliver: a temporary exchange and one queue bound to it, declared and deleted by the
// bench, and the arrival count every AMQP contender is timed by (messages in the queue, via checkQueue).
import { randomBytes } from "node:crypto";
import amqp from "amqplib";
import { newId } from "../../../src/domain/ids.ts";
import { buildQueueMessage, queueMessageHeaders } from "../../../src/sinks/queue-message.ts";
import { PUBLISH_ID_HEADER } from "../../../src/sinks/amqp/publisher.ts";

export const ROUTING_KEY = "bench";

export interface BenchBroker {
  readonly exchange: string;
  readonly queue: string;
  /** Empty the queue before a contender runs. */
  purge(): Promise<void>;
  /** Messages in the queue now. */
  count(): Promise<number>;
  /** Poll until the queue holds each of `targets` messages; resolves with when it first saw each (ms since the epoch). */
  waitFor(targets: readonly number[], timeoutMs: number): Promise<number[]>;
  /** Size in bytes of one message waiting in the queue (taken off the queue), if any. */
  sampleSize(): Promise<number | undefined>;
  /** Delete the queue and the exchange, and disconnect. */
  close(): Promise<void>;
}

/**
 * Declare `bench-deliver-<pid>`: a direct exchange and a queue bound to it by `ROUTING_KEY`. The queue is
 * durable unless `durable` is false, so persistent messages cost what they cost in production (a disk write
 * before the confirm).
 */
export async function openBroker(url: string, durable: boolean): Promise<BenchBroker> {
  const model = await amqp.connect(url);
  const channel = await model.createChannel();
  const name = `bench-deliver-${process.pid}`;
  await channel.assertExchange(name, "direct", { durable: false, autoDelete: false });
  await channel.assertQueue(name, { durable, autoDelete: false });
  await channel.bindQueue(name, name, ROUTING_KEY);
  return {
    exchange: name,
    queue: name,
    purge: async () => void (await channel.purgeQueue(name)),
    count: async () => (await channel.checkQueue(name)).messageCount,
    async waitFor(targets, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      const times: number[] = [];
      for (;;) {
        const { messageCount } = await channel.checkQueue(name);
        const now = performance.timeOrigin + performance.now();
        targets.forEach((n, i) => {
          if (times[i] === undefined && messageCount >= n) times[i] = now;
        });
        if (targets.every((_, i) => times[i] !== undefined)) return times;
        if (Date.now() > deadline)
          throw new Error(`queue ${name} holds ${messageCount} messages, waited for ${targets.join(", ")}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    async sampleSize() {
      const msg = await channel.get(name, { noAck: true });
      return msg === false ? undefined : msg.content.length;
    },
    async close() {
      await channel.deleteQueue(name).catch(() => undefined);
      await channel.deleteExchange(name).catch(() => undefined);
      await model.close().catch(() => undefined);
    },
  };
}

/**
 * The message a Switchyard amqp sink publishes for a hook with `body` as received by the bench's ingest
 * (same envelope, same headers), for the bare amqplib baseline to publish instead.
 */
export function lookalikeMessage(body: Buffer): { content: Buffer; headers: Record<string, string> } {
  const id = newId("hk");
  const dedupKey = `h:${randomBytes(8).toString("hex")}`;
  const hook = {
    id,
    source: "bench",
    tenant: undefined,
    receivedAt: Date.now(),
    contentType: "application/json",
    headers: {
      host: "127.0.0.1:40000",
      "content-type": "application/json",
      "content-length": String(body.length),
      "x-bench-id": `bench_${process.pid}_0000000`,
    },
    body,
    sha256: "0".repeat(64),
    dedupKey,
    idempotencyKey: `-:bench:${dedupKey}`,
    sinks: ["amqp"],
  };
  const delivery = { hook, sink: "amqp", attempt: 1, replayId: undefined, claim: undefined };
  return {
    content: Buffer.from(JSON.stringify(buildQueueMessage(delivery, undefined))),
    headers: { ...queueMessageHeaders(delivery), [PUBLISH_ID_HEADER]: "1" },
  };
}

// The AMQP side of the chaos run's ground truth: a queue bound to the sink's exchange, consumed for the
// whole run, every message's hook body decoded and recorded by the sender's id. Its own connection is
// not one the faults cut (they close the sink's connections by name), but it reconnects anyway: the
// broker is shared, and another test may close every connection. A message the broker redelivers to
// this consumer (its ack was lost with a connection) is not counted twice: that would be the test's
// duplicate, not Switchyard's.
import { randomBytes } from "node:crypto";
import amqp from "amqplib";
import type { Channel, ChannelModel, ConsumeMessage } from "amqplib";
import { RABBIT_URL } from "../rabbit.ts";
import { Arrivals } from "./arrivals.ts";
import { seqOf } from "./receiver.ts";

export interface AmqpRecorder {
  readonly url: string;
  readonly exchange: string;
  readonly arrivals: Arrivals;
  /** Messages without a readable sender id (should stay 0). */
  readonly unreadable: number;
  /** Times the recorder's own connection was lost and opened again. */
  readonly reconnects: number;
  close(): Promise<void>;
}

export async function startAmqpRecorder(url = RABBIT_URL): Promise<AmqpRecorder> {
  const suffix = randomBytes(5).toString("hex");
  const exchange = `sy-chaos-x-${suffix}`;
  const queue = `sy-chaos-q-${suffix}`;
  const arrivals = new Arrivals();
  const stats = { unreadable: 0, reconnects: 0 };
  let closing = false;
  let model: ChannelModel | undefined;
  let channel: Channel | undefined;

  const onMessage = (msg: ConsumeMessage | null): void => {
    if (!msg || !channel) return;
    try {
      const m = JSON.parse(msg.content.toString("utf8")) as { id?: string; body_base64?: string };
      const attempt = msg.properties.headers?.["x-switchyard-attempt"] as unknown;
      const seq = m.body_base64 === undefined ? undefined : seqOf(Buffer.from(m.body_base64, "base64"));
      if (seq === undefined || m.id === undefined) stats.unreadable += 1;
      else if (!(msg.fields.redelivered && arrivals.has(seq)))
        arrivals.add(seq, m.id, attempt === undefined ? undefined : String(attempt));
    } catch {
      stats.unreadable += 1;
    }
    channel.ack(msg);
  };

  const open = async (): Promise<void> => {
    const conn = await amqp.connect(url, {
      clientProperties: { connection_name: `chaos-recorder/${suffix}` },
    });
    conn.on("error", () => undefined);
    const ch = await conn.createChannel();
    ch.on("error", () => undefined);
    await ch.assertExchange(exchange, "topic", { durable: false, autoDelete: false });
    await ch.assertQueue(queue, { durable: false, autoDelete: false });
    await ch.bindQueue(queue, exchange, "#");
    await ch.prefetch(500);
    model = conn;
    channel = ch;
    conn.once("close", () => {
      channel = undefined;
      if (!closing) void reopen();
    });
    await ch.consume(queue, onMessage);
  };

  const reopen = async (): Promise<void> => {
    stats.reconnects += 1;
    while (!closing) {
      try {
        await open();
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  };

  await open();
  return {
    url,
    exchange,
    arrivals,
    get unreadable() {
      return stats.unreadable;
    },
    get reconnects() {
      return stats.reconnects;
    },
    close: async () => {
      closing = true;
      try {
        await channel?.deleteQueue(queue);
        await channel?.deleteExchange(exchange);
      } finally {
        await model?.close().catch(() => undefined);
      }
    },
  };
}

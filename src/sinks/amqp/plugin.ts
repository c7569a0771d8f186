// The `amqp` sink type: publishes the queue message v1 with publisher confirms (durable), and sends
// bodies above the inline limit as claim URLs.
import type { SinkPlugin } from "../plugin.ts";
import { createAmqpSink } from "./amqp-sink.ts";
import { type AmqpSinkConfig, amqpSinkSchema } from "./config.ts";

export const amqpSink: SinkPlugin<AmqpSinkConfig> = {
  type: "amqp",
  schema: amqpSinkSchema,
  traits: { protocol: "amqp", durable: true, claimCheck: true },
  create: createAmqpSink,
};

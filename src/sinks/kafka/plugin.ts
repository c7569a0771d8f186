// The `kafka` sink type: produces the queue message v1 with acks from all in-sync replicas (durable), and
// sends bodies above the inline limit as claim URLs.
import type { SinkPlugin } from "../plugin.ts";
import { type KafkaSinkConfig, kafkaSinkSchema } from "./config.ts";
import { createKafkaSink } from "./kafka-sink.ts";

export const kafkaSink: SinkPlugin<KafkaSinkConfig> = {
  type: "kafka",
  schema: kafkaSinkSchema,
  traits: { protocol: "kafka", durable: true, claimCheck: true },
  create: createKafkaSink,
};

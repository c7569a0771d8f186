// The `amqp` sink's config: the broker, the exchange and routing key, and how much is in flight.
import { z } from "zod";
import { positiveInt } from "../../config/fields.ts";
import { batchOptions, sinkConfigSchema } from "../plugin.ts";

export const amqpSinkSchema = sinkConfigSchema("amqp", {
  url: z.string().regex(/^amqps?:\/\//, "must be an amqp:// or amqps:// URL"),
  exchange: z.string().min(1),
  routing_key: z.string().default("{source}.{tenant}"),
  max_in_flight: positiveInt.max(100_000).default(1000),
  batch: batchOptions.optional(),
});
export type AmqpSinkConfig = z.infer<typeof amqpSinkSchema>;

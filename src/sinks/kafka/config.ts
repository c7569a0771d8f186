// The `kafka` sink's config: brokers, topic, key template, client security, and batching. A broker listed
// twice is refused here, naming the repeat.
import { z } from "zod";
import { positiveInt } from "../../config/fields.ts";
import { named, refuseRepeats } from "../../config/unique-lists.ts";
import { strict } from "../../config/unknown-keys.ts";
import { batchOptions, sinkConfigSchema } from "../plugin.ts";

/** Kafka batches are capped by bytes too: a broker refuses a request over message.max.bytes whole. */
const kafkaBatch = batchOptions.extend({
  /** Estimated from the serialized messages; below the broker's default 1 MB limit. */
  max_bytes: positiveInt.default(900_000),
});

export const kafkaSinkSchema = sinkConfigSchema("kafka", {
  brokers: z.array(z.string().min(1)).min(1),
  topic: z.string().min(1),
  key: z.string().default("{tenant}/{source}"),
  client_id: z.string().default("switchyard"),
  ssl: z.boolean().default(false),
  sasl: strict
    .object({
      mechanism: z.enum(["plain", "scram-sha-256", "scram-sha-512"]),
      username: z.string(),
      password: z.string(),
    })
    .optional(),
  batch: kafkaBatch.optional(),
}).superRefine((sink, ctx) => refuseRepeats(ctx, ["brokers"], sink.brokers, named));
export type KafkaSinkConfig = z.infer<typeof kafkaSinkSchema>;

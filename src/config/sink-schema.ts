// The `sinks:` section: one schema per sink type, told apart by `type`. Options every type takes
// (concurrency, claim check, breaker overrides) are declared once.
import { z } from "zod";
import { strict } from "./unknown-keys.ts";
import { breaker, nonNegativeInt, positiveInt } from "./fields.ts";

const batch = strict.object({
  max: positiveInt.max(10_000).default(256),
  max_delay_ms: nonNegativeInt.default(5),
});

/** Kafka batches are capped by bytes too: a broker refuses a request over message.max.bytes whole. */
const kafkaBatch = batch.extend({
  /** Estimated from the serialized messages; below the broker's default 1 MB limit. */
  max_bytes: positiveInt.default(900_000),
});

/** Options every sink type accepts. */
const sinkCommon = {
  concurrency: positiveInt.max(10_000).optional(),
  claim_check_bytes: positiveInt.optional(),
  breaker: breaker.partial().optional(),
  /**
   * BullMQ queues the sink's jobs are spread over (each its own hash tag, so a hot sink is not one
   * Redis Cluster slot); a delivery's partition is fixed by its id. 1 when unset.
   */
  partitions: positiveInt.max(256).optional(),
};

const httpSink = strict.object({
  type: z.literal("http"),
  url: z.url({ protocol: /^https?$/ }),
  method: z.enum(["POST", "PUT", "PATCH"]).default("POST"),
  headers: z.record(z.string(), z.string()).default({}),
  timeout_ms: positiveInt.default(10_000),
  secret: z.string().min(1).optional(),
  ...sinkCommon,
});

const amqpSink = strict.object({
  type: z.literal("amqp"),
  url: z.string().regex(/^amqps?:\/\//, "must be an amqp:// or amqps:// URL"),
  exchange: z.string().min(1),
  routing_key: z.string().default("{source}.{tenant}"),
  max_in_flight: positiveInt.max(100_000).default(1000),
  batch: batch.optional(),
  ...sinkCommon,
});

const kafkaSink = strict.object({
  type: z.literal("kafka"),
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
  ...sinkCommon,
});

const logSink = strict.object({
  type: z.literal("log"),
  level: z.enum(["trace", "debug", "info", "warn", "error"]).default("info"),
  ...sinkCommon,
});

export const sinkSchema = z.discriminatedUnion("type", [httpSink, amqpSink, kafkaSink, logSink]);
export type SinkConfig = z.infer<typeof sinkSchema>;
export type HttpSinkConfig = z.infer<typeof httpSink>;
export type AmqpSinkConfig = z.infer<typeof amqpSink>;
export type KafkaSinkConfig = z.infer<typeof kafkaSink>;
export type LogSinkConfig = z.infer<typeof logSink>;

// A sink type added the way any sink type is: this one folder exporting a SinkPlugin, registered with one
// `registerSink(memorySink)` line. It keeps what it is handed in memory, per `bucket`, for the test to
// read; `fail_first` makes its first attempts fail transiently, so retries go through the engine too.
import { z } from "zod";
import { nonNegativeInt } from "../../../../src/config/fields.ts";
import { ok, transient } from "../../../../src/domain/error-class.ts";
import type { Delivery } from "../../../../src/domain/hook.ts";
import { type SinkPlugin, sinkConfigSchema } from "../../../../src/sinks/plugin.ts";
import type { Sink, SinkDeps } from "../../../../src/sinks/sink.ts";

const memorySinkSchema = sinkConfigSchema("memory", {
  bucket: z.string().min(1),
  fail_first: nonNegativeInt.default(0),
});
type MemorySinkConfig = z.infer<typeof memorySinkSchema>;

const buckets = new Map<string, Delivery[]>();
const attempts = new Map<string, number>();

/** The deliveries a memory sink with `bucket` accepted, in order. */
export function received(bucket: string): readonly Delivery[] {
  return buckets.get(bucket) ?? [];
}

/** Every attempt a memory sink with `bucket` was handed, failed ones included. */
export function attemptsOf(bucket: string): number {
  return attempts.get(bucket) ?? 0;
}

function createMemorySink(name: string, config: MemorySinkConfig, deps: SinkDeps): Sink {
  return {
    name,
    type: "memory",
    inlineMaxBytes: config.claim_check_bytes ?? deps.defaultClaimCheckBytes,
    deliver: (delivery) => {
      const n = (attempts.get(config.bucket) ?? 0) + 1;
      attempts.set(config.bucket, n);
      if (n <= config.fail_first) return Promise.resolve(transient(`memory sink fails attempt ${n}`));
      buckets.set(config.bucket, [...received(config.bucket), delivery]);
      return Promise.resolve(ok);
    },
    describe: () => ({ payload: "message", protocol: "memory", host: "localhost", address: config.bucket }),
    close: () => Promise.resolve(),
  };
}

export const memorySink: SinkPlugin<MemorySinkConfig> = {
  type: "memory",
  schema: memorySinkSchema,
  traits: { protocol: "memory", durable: false, claimCheck: true },
  create: createMemorySink,
};

// What a sink type is, as one value: its name, its config schema, its factory and the traits callers ask
// of a type without building a sink (is it durable, does it take the claim check, which protocol does
// it publish over). The config schema, the config warnings, the AsyncAPI document and the registry all
// read these, so a sink type is one folder under src/sinks/ exporting a SinkPlugin, plus one line in
// registry.ts; nothing outside that folder knows its name.
import { z } from "zod";
import { breaker, nonNegativeInt, positiveInt } from "../config/fields.ts";
import { strict } from "../config/unknown-keys.ts";
import type { Sink, SinkDeps } from "./sink.ts";

/** Options every sink type accepts, declared once. */
const commonOptions = {
  concurrency: positiveInt.max(10_000).optional(),
  claim_check_bytes: positiveInt.optional(),
  breaker: breaker.partial().optional(),
  /**
   * BullMQ queues the sink's jobs are spread over (each its own hash tag, so a hot sink is not one
   * Redis Cluster slot); a delivery's partition is fixed by its id. 1 when unset.
   */
  partitions: positiveInt.max(256).optional(),
};

/** A batching sink's `batch:` option. */
export const batchOptions = strict.object({
  max: positiveInt.max(10_000).default(256),
  max_delay_ms: nonNegativeInt.default(5),
});

/**
 * The config schema of sink type `type`: `type: <type>`, the type's own keys, and the options every
 * type takes. A strict object, so a mistyped key is named with the key probably meant.
 */
export function sinkConfigSchema<T extends string, S extends z.core.$ZodLooseShape>(type: T, shape: S) {
  return strict.object({ type: z.literal(type), ...shape, ...commonOptions });
}

/** What every sink config holds, whatever its type: all that code outside the sink's folder reads. */
export type SinkConfig = z.infer<ReturnType<typeof sinkConfigSchema<string, Record<never, never>>>>;

/** What callers ask of a sink type by name, without building a sink. */
export interface SinkTraits {
  /**
   * The protocol consumers read it over, for the AsyncAPI document and its servers; undefined for a
   * sink that publishes nowhere a consumer reads (log).
   */
  readonly protocol: string | undefined;
  /** Does `ok` mean something that outlives this process has the hook (a 2xx, a broker confirm)? */
  readonly durable: boolean;
  /** Does a body above `claim_check_bytes` go out as a claim URL (the queue sinks)? */
  readonly claimCheck: boolean;
}

/** A config schema the `sinks:` union can tell apart by its `type` literal. */
export type SinkSchema<C extends SinkConfig> = z.ZodType<C, unknown> & z.core.$ZodTypeDiscriminable;

/** One sink type. `C` is its parsed config. */
export interface SinkPlugin<C extends SinkConfig = SinkConfig> {
  /** The `type:` value that selects it in the config. */
  readonly type: string;
  readonly schema: SinkSchema<C>;
  readonly traits: SinkTraits;
  /** Build the sink `name`. Nothing may connect here: sinks connect on their first delivery. */
  create(name: string, config: C, deps: SinkDeps): Sink;
}

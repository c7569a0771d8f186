// The `sources:` section: how a source's hooks are verified, deduplicated and routed to sinks. The
// `verify:` schemes and `dedup:` presets are the verification presets' (src/ingest/verify/presets/), so
// these schemas are built from their registry and know no scheme by name.
import { z } from "zod";
import { strict } from "./unknown-keys.ts";
import { name, positiveInt, retry } from "./fields.ts";
import {
  BODY_DEDUP,
  type VerifyConfigBase,
  dedupPresetNames,
  verifyPresets,
} from "../ingest/verify/registry.ts";

/** A source's `verify:`, over every registered preset (each preset's schema is its own module's). */
function verifySchema() {
  const [first, ...rest] = verifyPresets().map((preset) => preset.schema);
  if (first === undefined) throw new Error("no verify presets are registered");
  return z.discriminatedUnion("type", [first, ...rest]);
}
export type VerifyConfig = VerifyConfigBase;

/** A source's `dedup:`: a preset name (each verify preset defines its own, plus `body`), a header or a body field. */
function dedupSchema() {
  return z.union([
    z.enum(dedupPresetNames()),
    strict.object({ header: z.string().min(1).toLowerCase() }),
    strict.object({ json: z.string().min(1) }),
  ]);
}
export type DedupConfig = z.infer<ReturnType<typeof dedupSchema>>;

/** The schema of one entry of `sources:`, over the registered verify presets. */
export function sourceSchema() {
  return strict.object({
    /** The tenant of hooks posted to /webhooks/:source (and accepted in the path form). */
    tenant: name.optional(),
    /** Tenants accepted in /webhooks/:tenant/:source; any other path tenant is an unknown source. */
    tenants: z.array(name).optional(),
    verify: verifySchema(),
    on_verify_failure: z.enum(["reject", "quarantine"]).default("reject"),
    dedup: dedupSchema().default(BODY_DEDUP),
    dedup_ttl_s: positiveInt.default(259_200),
    sinks: z.array(name).min(1),
    retry: retry.partial().optional(),
    /** Waiting jobs in any of this source's sink queues above which ingest answers 429. */
    max_queue_depth: positiveInt.default(1_000_000),
    allow_non_durable: z.boolean().default(false),
    /** Keep the inbound Authorization and Cookie with the hook, so sinks receive them (off: dropped). */
    forward_credentials: z.boolean().default(false),
  });
}
export type SourceConfig = z.infer<ReturnType<typeof sourceSchema>>;

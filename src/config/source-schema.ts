// The `sources:` section: how a source's hooks are verified, deduplicated and routed to sinks.
import { z } from "zod";
import { strict } from "./unknown-keys.ts";
import { name, positiveInt, retry } from "./fields.ts";

// An empty secret is an unset `${OLD_SECRET:-}` (a rotation not under way): it verifies nothing and is dropped.
const secretList = z
  .array(z.string())
  .transform((list) => list.filter((secret) => secret.length > 0))
  .pipe(z.array(z.string()).min(1, "at least one secret").max(8, "at most 8 secrets"));
const tolerance_s = positiveInt.default(300);
// A scheme's secrets: one list every tenant of the source shares, or a list per tenant (then a request
// verifies only under its path tenant's secrets, which binds that tenant to what was signed). Exactly
// one of the two; tenant-secrets.ts checks them against the source's tenants.
const secrets = {
  secrets: secretList.optional(),
  secrets_by_tenant: z.record(name, secretList).optional(),
};

const verify = z.discriminatedUnion("type", [
  strict.object({ type: z.literal("none") }),
  strict.object({ type: z.literal("stripe"), ...secrets, tolerance_s }),
  strict.object({ type: z.literal("github"), ...secrets }),
  strict.object({ type: z.literal("shopify"), ...secrets }),
  strict.object({ type: z.literal("slack"), ...secrets, tolerance_s }),
  strict.object({ type: z.literal("standard_webhooks"), ...secrets, tolerance_s }),
  strict.object({
    type: z.literal("hmac"),
    ...secrets,
    header: z.string().min(1).toLowerCase(),
    /** What is signed: `{body}`, optionally with `{timestamp}` from `timestamp_header`. */
    template: z.string().default("{body}"),
    hash: z.enum(["sha256", "sha512", "sha1"]).default("sha256"),
    encoding: z.enum(["hex", "base64"]).default("hex"),
    prefix: z.string().default(""),
    timestamp_header: z.string().toLowerCase().optional(),
    tolerance_s,
  }),
]);
export type VerifyConfig = z.infer<typeof verify>;

const dedup = z.union([
  z.enum(["stripe", "github", "shopify", "standard_webhooks", "svix", "body"]),
  strict.object({ header: z.string().min(1).toLowerCase() }),
  strict.object({ json: z.string().min(1) }),
]);
export type DedupConfig = z.infer<typeof dedup>;

export const source = strict.object({
  /** The tenant of hooks posted to /webhooks/:source (and accepted in the path form). */
  tenant: name.optional(),
  /** Tenants accepted in /webhooks/:tenant/:source; any other path tenant is an unknown source. */
  tenants: z.array(name).optional(),
  verify,
  on_verify_failure: z.enum(["reject", "quarantine"]).default("reject"),
  dedup: dedup.default("body"),
  dedup_ttl_s: positiveInt.default(259_200),
  sinks: z.array(name).min(1),
  retry: retry.partial().optional(),
  /** Waiting jobs in any of this source's sink queues above which ingest answers 429. */
  max_queue_depth: positiveInt.default(1_000_000),
  allow_non_durable: z.boolean().default(false),
  /** Keep the inbound Authorization and Cookie with the hook, so sinks receive them (off: dropped). */
  forward_credentials: z.boolean().default(false),
});
export type SourceConfig = z.infer<typeof source>;

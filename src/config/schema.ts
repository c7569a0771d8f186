// The shape of switchyard.yaml, validated once at boot. Everything else reads the parsed, defaulted
// Config type and never re-checks a value. Sinks and sources have their own modules; the cross-field
// refusals (retention against retries and dedup, unknown sinks) are here, warnings in warnings.ts.
import { z } from "zod";
import { dedupAgreement } from "./dedup-agreement.ts";
import { MAX_CATALOG_ENTRIES, eventTypeSchema } from "./event-type-schema.ts";
import { strict } from "./unknown-keys.ts";
import { LOG_LEVELS, breaker, name, positiveInt, retry } from "./fields.ts";
import { durabilitySchema, redisSchema } from "./redis-schema.ts";
import { operationalSchema } from "./operational-schema.ts";
import { sinkSchema } from "./sink-schema.ts";
import { sinkRegistryGeneration, sinkTraits } from "../sinks/registry.ts";
import { sourceSchema } from "./source-schema.ts";
import { verifyRegistryGeneration } from "../ingest/verify/registry.ts";
import { tenantSecretsIssues } from "./tenant-secrets.ts";
import { refuseDuplicateEntries } from "./unique-lists.ts";

export { LOG_LEVELS, NAME } from "./fields.ts";
export type { BreakerConfig, LogLevel, RetryConfig } from "./fields.ts";
export type { SinkConfig } from "./sink-schema.ts";
export type { DedupConfig, SourceConfig, VerifyConfig } from "./source-schema.ts";

// A plain string may be empty (an unset `${VAR:-}`): it grants nothing and is dropped.
const adminToken = z.union([
  z.string().refine((t) => t.length === 0 || t.length >= 16, "admin tokens must be at least 16 characters"),
  strict.object({
    token: z.string().min(16, "admin tokens must be at least 16 characters"),
    tenant: name.optional(),
  }),
]);

// An exact origin as a browser sends it in `Origin`: scheme, host and port only, no wildcard.
const allowedOrigin = z.string().refine((value) => {
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && url.origin === value;
  } catch {
    return false;
  }
}, "must be an origin as browsers send it, like https://ops.example.com (scheme, host and optional port; no path, no trailing slash, no wildcard)");

// The constant defaults below are the last resort: the loader first fills `http.port`, `redis.url`
// and `log_level` from PORT, REDIS_URL and LOG_LEVEL when the file leaves them out (env-defaults.ts).
// Built from the registered sink types (and verify presets), so it is a function: see configSchema().
function buildConfigSchema() {
  return strict
    .object({
      log_level: z.enum(LOG_LEVELS).default("info"),
      redis: redisSchema,
      http: strict
        .object({
          port: z.coerce.number().int().min(0).max(65535).default(3000),
          /**
           * A process without the api role (a Procfile worker) serves GET /metrics, /healthz and /readyz
           * on this port, so its delivery metrics can be scraped; unset, it serves no HTTP at all.
           */
          metrics_port: z.coerce.number().int().min(0).max(65535).optional(),
          host: z.string().default("0.0.0.0"),
          max_body_bytes: positiveInt.default(1_048_576),
          /**
           * Base URL at which sink consumers reach the API (the web processes): claim URLs start with it.
           * Unset, they point at this process's loopback address, useless to a consumer on another host.
           */
          public_url: z.url().optional(),
          /** The whole request (headers and body) must arrive within this; a stalled client is cut. */
          request_timeout_ms: positiveInt.default(15_000),
          headers_timeout_ms: positiveInt.default(10_000),
          max_connections: positiveInt.default(10_000),
          /** Signs claim URLs; unset, one is generated and shared through Redis. */
          claim_signing_key: z.string().min(32, "must be at least 32 characters").optional(),
        })
        .refine((h) => h.headers_timeout_ms <= h.request_timeout_ms, {
          path: ["headers_timeout_ms"],
          message: "must not exceed request_timeout_ms",
        })
        .prefault({}),
      durability: durabilitySchema,
      /**
       * How long a record, its deliveries and their DLQ entries are kept after their LAST change (a live
       * delivery keeps its record alive however long it takes).
       */
      retention_s: positiveInt.default(604_800),
      recovery: strict
        .object({
          /** Time between recovery ticks (reconcile, trim). */
          interval_ms: positiveInt.default(30_000),
          /** A row pending, or overdue, this long with nothing happening to it is re-enqueued. */
          stale_after_ms: positiveInt.default(60_000),
        })
        .prefault({}),
      admin: strict
        .object({
          tokens: z.array(adminToken).default([]),
          /**
           * Web pages of other origins that may send state-changing admin requests (and get CORS on /v1).
           * Empty: only the gateway's own pages and non-browser clients.
           */
          allowed_origins: z.array(allowedOrigin).default([]),
        })
        .prefault({}),
      /** The tenant portal (/portal). */
      portal: strict
        .object({
          /**
           * Origins whose pages may show the portal in a frame (`frame-ancestors`); empty: none may.
           * The session cookie is SameSite=Strict, so a frame works on pages of the gateway's own site.
           */
          embed_origins: z.array(allowedOrigin).default([]),
        })
        .prefault({}),
      replays: strict
        .object({
          /**
           * Replays one tenant may have running or paused at once (the untenanted admin token counts as
           * one tenant); another answers 429 too_many_replays. Keeps one tenant from filling the runners.
           */
          max_per_tenant: positiveInt.max(10_000).default(10),
        })
        .prefault({}),
      dispatch: strict
        .object({
          concurrency: positiveInt.max(10_000).default(64),
          attempt_timeout_ms: positiveInt.default(30_000),
          max_retry_after_ms: positiveInt.default(3_600_000),
          retry: retry.prefault({}),
          breaker: breaker.prefault({}),
          claim_check_bytes: positiveInt.default(65_536),
          /** How long a signed claim URL is valid (default and maximum: retention_s). */
          claim_url_ttl_s: positiveInt.optional(),
          /** BullMQ lock: a dead worker's jobs are picked up again within about 1.5× this. */
          lock_ms: positiveInt.default(10_000),
          /**
           * What keeps the delivery queues: queues beside the ledger's rows (docs/ledger-dispatch.md),
           * or a BullMQ job per delivery (the engine before, kept for one release as a way back).
           */
          engine: z.enum(["bullmq", "ledger"]).default("ledger"),
        })
        .prefault({}),
      /** Hooks kept after failing verification (sources with on_verify_failure: quarantine). */
      quarantine: strict
        .object({
          max_entries: positiveInt.max(1_000_000).default(1000),
          max_bytes: positiveInt.default(16 * 1024 * 1024),
          ttl_s: positiveInt.default(86_400),
        })
        .prefault({}),
      outbound: strict
        .object({
          /** Let endpoints point at private, loopback or link-local addresses (the SSRF guard off). */
          allow_private: z.boolean().default(false),
          /** One request to an endpoint: connect, headers and each pause of the body. */
          timeout_ms: positiveInt.default(15_000),
          /** Overrides of dispatch.retry for outbound deliveries. */
          retry: retry.partial().optional(),
          /** An endpoint failing without a success for this long is disabled (5 days). */
          disable_after_ms: positiveInt.default(432_000_000),
          /** Attempts at one endpoint at once, across every worker process. */
          max_in_flight_per_endpoint: positiveInt.max(10_000).default(8),
          /** Outbound attempts per worker process, over all endpoints. */
          concurrency: positiveInt.max(10_000).default(64),
          /** The per-endpoint breaker (shared by every process); dispatch.breaker by default. */
          breaker: breaker.partial().optional(),
          /** Endpoints one tenant (or the tenantless scope) may have: bounds one event's fanout. */
          max_endpoints_per_tenant: positiveInt.max(100_000).default(1000),
          /** Rows one publish script writes at most: a fanout is written this many endpoints at a time. */
          fanout_page_size: positiveInt.max(1000).default(100),
          /** The event catalog: event types the application publishes (more may be added by API). */
          event_types: z.array(eventTypeSchema).max(MAX_CATALOG_ENTRIES).default([]),
        })
        .prefault({}),
      /** Operational events: the gateway's own facts as signed `switchyard.*` events. */
      operational: operationalSchema,
      sinks: z.record(name, sinkSchema()),
      sources: z.record(name, sourceSchema()),
    })
    .superRefine((cfg, ctx) => {
      refuseDuplicateEntries(cfg, ctx);
      // A delivery may retry for max_elapsed_ms and a duplicate is recognised for dedup_ttl_s: a record
      // kept for less than either would vanish under a live delivery or let a duplicate through.
      const retentionMs = cfg.retention_s * 1000;
      if (retentionMs < cfg.dispatch.retry.max_elapsed_ms) {
        ctx.addIssue({
          code: "custom",
          path: ["retention_s"],
          message: `${cfg.retention_s} s is shorter than dispatch.retry.max_elapsed_ms (${cfg.dispatch.retry.max_elapsed_ms} ms)`,
        });
      }
      const outboundElapsed = cfg.outbound.retry?.max_elapsed_ms;
      if (outboundElapsed !== undefined && retentionMs < outboundElapsed) {
        ctx.addIssue({
          code: "custom",
          path: ["outbound", "retry", "max_elapsed_ms"],
          message: `${outboundElapsed} ms is longer than retention_s (${cfg.retention_s} s)`,
        });
      }
      for (const [sourceName, src] of Object.entries(cfg.sources)) {
        const elapsed = src.retry?.max_elapsed_ms;
        if (elapsed !== undefined && retentionMs < elapsed) {
          ctx.addIssue({
            code: "custom",
            path: ["sources", sourceName, "retry", "max_elapsed_ms"],
            message: `${elapsed} ms is longer than retention_s (${cfg.retention_s} s)`,
          });
        }
        if (src.dedup_ttl_s > cfg.retention_s) {
          ctx.addIssue({
            code: "custom",
            path: ["sources", sourceName, "dedup_ttl_s"],
            message: `${src.dedup_ttl_s} s is longer than retention_s (${cfg.retention_s} s)`,
          });
        }
      }
      for (const [sourceName, src] of Object.entries(cfg.sources)) {
        // A hook is deduplicated on what its signature covers, and a per-tenant secret binds its tenant.
        const agreement = dedupAgreement(src.verify, src.dedup);
        if (agreement.kind === "refused")
          ctx.addIssue({
            code: "custom",
            path: ["sources", sourceName, "dedup"],
            message: agreement.message,
          });
        for (const issue of tenantSecretsIssues(src))
          ctx.addIssue({
            code: "custom",
            path: ["sources", sourceName, ...issue.path],
            message: issue.message,
          });
        src.tenants?.forEach((tenant, i) => {
          if (src.tenants?.indexOf(tenant) !== i) {
            ctx.addIssue({
              code: "custom",
              path: ["sources", sourceName, "tenants", i],
              message: `duplicate tenant "${tenant}"`,
            });
          }
        });
        src.sinks.forEach((sinkName, i) => {
          if (!(sinkName in cfg.sinks)) {
            ctx.addIssue({
              code: "custom",
              path: ["sources", sourceName, "sinks", i],
              message: `unknown sink "${sinkName}" (defined: ${Object.keys(cfg.sinks).join(", ") || "none"})`,
            });
          }
        });
        const types = src.sinks.flatMap((s) => cfg.sinks[s]?.type ?? []);
        if (!types.some((type) => sinkTraits(type)?.durable === true) && !src.allow_non_durable) {
          ctx.addIssue({
            code: "custom",
            path: ["sources", sourceName, "sinks"],
            message: `every sink of this source is non-durable (${[...new Set(types)].join(", ")}); add a durable sink or set allow_non_durable: true`,
          });
        }
      }
    });
}

/** Changes whenever a sink type or verify preset is registered. */
const registryGeneration = (): string => `${sinkRegistryGeneration()}:${verifyRegistryGeneration()}`;

let built: { readonly schema: ReturnType<typeof buildConfigSchema>; readonly generation: string } | undefined;

/**
 * The schema of switchyard.yaml over the sink types and verify presets registered now; built once, and
 * again only after a registration.
 */
export function configSchema(): ReturnType<typeof buildConfigSchema> {
  const generation = registryGeneration();
  if (built?.generation !== generation) built = { schema: buildConfigSchema(), generation };
  return built.schema;
}

export type Config = z.infer<ReturnType<typeof buildConfigSchema>>;
export type AdminTokenConfig = z.infer<typeof adminToken>;

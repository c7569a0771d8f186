// POST /webhooks/:source and /webhooks/:tenant/:source: the providers' door.
import { Hono } from "hono";
import { NAME, type SourceConfig } from "../../config/schema.ts";
import { IngestError } from "../../ingest/ingest-error.ts";
import type { IngestService } from "../../ingest/ingest-service.ts";
import { acceptsPathTenant } from "../../ingest/path-tenant.ts";
import { keptHeaders, keptRawHeaders } from "../../ingest/headers.ts";
import type { Metrics } from "../../observability/metrics.ts";
import type { Tracing } from "../../observability/tracing.ts";
import { ApiError, INGEST_STATUS } from "../api-error.ts";
import { readBodyCapped } from "../read-body.ts";

export interface WebhookRouteDeps {
  readonly ingest: IngestService;
  /** `config.sources`: a request for a name not here is refused before its body is read. */
  readonly sources: Readonly<Record<string, SourceConfig>>;
  readonly metrics: Metrics;
  readonly maxBodyBytes: number;
  /** A server span per request, whose context the hook keeps (off unless OTEL_* configure an exporter). */
  readonly tracing: Tracing;
}

const OUTCOME_OF_STATUS: Record<number, string> = {
  401: "unverified",
  404: "unknown_source",
  413: "too_large",
  429: "overloaded",
  503: "unavailable",
};

/**
 * The raw header list of the Node request behind a Hono request, when there is one (the node adapter
 * passes it as `env.incoming`; `app.request` in tests does not): reading it skips building a fetch
 * Headers object per hook.
 */
function rawHeadersOf(env: unknown): readonly string[] | undefined {
  const incoming = (env as { incoming?: { rawHeaders?: unknown } } | undefined)?.incoming;
  return Array.isArray(incoming?.rawHeaders) ? (incoming.rawHeaders as string[]) : undefined;
}

export function webhookRoutes(deps: WebhookRouteDeps): Hono {
  const app = new Hono();

  const handle = async (
    route: string,
    req: Request,
    rawHeaders: readonly string[] | undefined,
    source: string,
    tenant: string | undefined,
  ): Promise<Response> => {
    const started = performance.now();
    const span = deps.tracing.startRequest(route, req.headers);
    let outcome = "error";
    let status = 500;
    let hookId: string | undefined;
    // Path names are the sender's choice: only configured ones may become label values.
    const known = Object.hasOwn(deps.sources, source);
    try {
      if (!NAME.test(source) || (tenant !== undefined && !NAME.test(tenant))) {
        throw new IngestError("unknown_source", "source and tenant must match [A-Za-z0-9_-]{1,64}");
      }
      const config = known ? deps.sources[source] : undefined;
      if (!config) throw new IngestError("unknown_source", `no source named "${source}"`);
      if (tenant !== undefined && !acceptsPathTenant(config, tenant)) {
        throw new IngestError("unknown_source", `no source named "${source}" for tenant "${tenant}"`);
      }
      const body = await readBodyCapped(req, deps.maxBodyBytes);
      const result = await deps.ingest.ingest({
        source,
        tenant,
        headers: rawHeaders ? keptRawHeaders(rawHeaders) : keptHeaders(req.headers),
        body,
        traceparent: span?.traceparent,
      });
      outcome = result.status;
      hookId = result.id;
      status = result.status === "accepted" ? 202 : 200;
      return Response.json(result, { status });
    } catch (err) {
      const apiError =
        err instanceof IngestError
          ? new ApiError(
              INGEST_STATUS[err.code],
              err.code,
              err.message,
              err.retryAfterS === undefined ? {} : { "retry-after": String(err.retryAfterS) },
            )
          : err;
      if (apiError instanceof ApiError) {
        status = apiError.status;
        outcome = OUTCOME_OF_STATUS[status] ?? "rejected";
      }
      throw apiError;
    } finally {
      deps.metrics.ingestRequests.inc({ source: known ? source : "_unknown", outcome });
      deps.metrics.ingestDuration.observe((performance.now() - started) / 1000);
      span?.end(status, { hook_id: hookId, source: known ? source : undefined, outcome });
    }
  };

  app.post("/webhooks/:source", (c) =>
    handle("POST /webhooks/:source", c.req.raw, rawHeadersOf(c.env), c.req.param("source"), undefined),
  );
  app.post("/webhooks/:tenant/:source", (c) =>
    handle(
      "POST /webhooks/:tenant/:source",
      c.req.raw,
      rawHeadersOf(c.env),
      c.req.param("source"),
      c.req.param("tenant"),
    ),
  );
  return app;
}

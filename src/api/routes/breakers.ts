// GET /v1/breakers: the circuit breakers an operator looks at in an incident. Sinks' and endpoints'
// breakers are both shared in Redis and read from there on each request: every configured sink is
// listed, and only the endpoints whose breaker is not closed.
import { Hono, type MiddlewareHandler } from "hono";
import type { z } from "zod";
import type { BreakerView } from "../../delivery/shared-breaker.ts";
import type { Endpoint } from "../../domain/endpoint.ts";
import { maskUserinfo } from "../../domain/masked-url.ts";
import type { EndpointStore } from "../../store/endpoint-store.ts";
import type { AdminEnv } from "../admin-auth.ts";
import { type EndpointBreaker, type SinkBreaker, listBreakers } from "../contract/breakers.ts";
import { apiGroup } from "../route-group.ts";
import { iso } from "../views.ts";

export interface BreakerRouteDeps {
  /** The configured sinks, every one listed. */
  readonly sinks: readonly string[];
  readonly sinkBreaker: (sink: string) => Promise<BreakerView>;
  readonly endpoints: Pick<EndpointStore, "list">;
  readonly endpointBreaker: (id: string) => Promise<BreakerView>;
  readonly auth: MiddlewareHandler<AdminEnv>;
}

/** Endpoints looked at per answer, at most: the walk stays bounded however many are registered. */
export const MAX_ENDPOINTS_CHECKED = 10_000;
const PAGE = 500;

/** A sink's shared breaker. */
export function sinkBreakerView(sink: string, view: BreakerView): z.infer<typeof SinkBreaker> {
  return {
    sink,
    state: view.state,
    open_until: iso(view.openUntil ?? undefined) ?? null,
    probe_until: iso(view.probeUntil ?? undefined) ?? null,
  };
}

/** An endpoint's shared breaker. */
export function endpointBreakerView(
  e: Pick<Endpoint, "id" | "tenant" | "url">,
  view: BreakerView,
): z.infer<typeof EndpointBreaker> {
  return {
    endpoint: e.id,
    tenant: e.tenant ?? null,
    url: maskUserinfo(e.url),
    state: view.state,
    open_until: iso(view.openUntil ?? undefined) ?? null,
    probe_until: iso(view.probeUntil ?? undefined) ?? null,
  };
}

async function endpointViews(
  deps: BreakerRouteDeps,
  tenant: string | undefined,
): Promise<{ tripped: z.infer<typeof EndpointBreaker>[]; checked: number; truncated: boolean }> {
  const tripped: z.infer<typeof EndpointBreaker>[] = [];
  let checked = 0;
  let cursor: string | undefined;
  do {
    const page = await deps.endpoints.list({
      limit: Math.min(PAGE, MAX_ENDPOINTS_CHECKED - checked),
      ...(tenant !== undefined ? { tenant } : {}),
      ...(cursor !== undefined ? { cursor } : {}),
    });
    const views = await Promise.all(
      page.endpoints.map(async (e) => ({ e, view: await deps.endpointBreaker(e.id) })),
    );
    for (const { e, view } of views) if (view.state !== "closed") tripped.push(endpointBreakerView(e, view));
    checked += page.endpoints.length;
    cursor = page.next;
  } while (cursor !== undefined && checked < MAX_ENDPOINTS_CHECKED);
  return { tripped, checked, truncated: cursor !== undefined };
}

export function breakerRoutes(deps: BreakerRouteDeps): Hono {
  const app = apiGroup<AdminEnv>();

  app.openapi({ ...listBreakers, middleware: [deps.auth] as const }, async (c) => {
    const tenant = c.get("principal").tenant;
    // Sinks serve every tenant: a tenant-bound token sees only its own endpoints.
    const [sinks, endpoints] = await Promise.all([
      tenant === undefined
        ? Promise.all(deps.sinks.map(async (sink) => sinkBreakerView(sink, await deps.sinkBreaker(sink))))
        : [],
      endpointViews(deps, tenant),
    ]);
    return c.json(
      {
        sinks,
        endpoints: endpoints.tripped,
        endpoints_checked: endpoints.checked,
        endpoints_truncated: endpoints.truncated,
      },
      200,
    );
  });

  // Mounted on a plain app so it sits beside the public routes in createApp.
  return new Hono().route("/", app);
}

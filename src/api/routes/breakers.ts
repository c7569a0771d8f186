// GET /v1/breakers: the circuit breakers an operator looks at in an incident. A sink's breaker lives
// in each worker process (reported through the breaker board), so a sink shows the worst state any
// live process reports and every process's own; an endpoint's breaker is shared in Redis, and only
// the endpoints whose breaker is not closed are listed.
import { Hono, type MiddlewareHandler } from "hono";
import type { BreakerView } from "../../delivery/shared-breaker.ts";
import type { Endpoint } from "../../domain/endpoint.ts";
import { maskUserinfo } from "../../domain/masked-url.ts";
import type { BreakerBoard, ProcessReport, ReportedState } from "../../store/breaker-board.ts";
import type { EndpointStore } from "../../store/endpoint-store.ts";
import type { AdminEnv } from "../admin-auth.ts";
import { iso } from "../views.ts";

export interface BreakerRouteDeps {
  readonly board: BreakerBoard;
  /** The configured sinks, listed even when no process reports them. */
  readonly sinks: readonly string[];
  readonly endpoints: Pick<EndpointStore, "list">;
  readonly endpointBreaker: (id: string) => Promise<BreakerView>;
  readonly auth: MiddlewareHandler<AdminEnv>;
}

/** Endpoints looked at per answer, at most: the walk stays bounded however many are registered. */
export const MAX_ENDPOINTS_CHECKED = 10_000;
const PAGE = 500;

const SEVERITY: Record<ReportedState, number> = { closed: 0, half_open: 1, open: 2 };

/** One sink's breaker over every live process that reports it. */
export function sinkBreakerView(sink: string, reports: readonly ProcessReport[]): Record<string, unknown> {
  const processes = reports.flatMap((r) => {
    const b = r.sinks.get(sink);
    return b ? [{ process: r.process, ...b }] : [];
  });
  const worst = processes.reduce<ReportedState | undefined>(
    (acc, p) => (acc === undefined || SEVERITY[p.state] > SEVERITY[acc] ? p.state : acc),
    undefined,
  );
  return {
    sink,
    // No live process delivers this sink (no worker is running): nobody knows its breaker.
    state: worst ?? "unknown",
    open_until: iso(Math.max(...processes.map((p) => p.openUntil ?? -Infinity))) ?? null,
    processes: processes.map((p) => ({
      process: p.process,
      state: p.state,
      changed_at: iso(p.changedAt),
      open_until: iso(p.openUntil) ?? null,
    })),
  };
}

/** An endpoint's shared breaker. */
export function endpointBreakerView(
  e: Pick<Endpoint, "id" | "tenant" | "url">,
  view: BreakerView,
): Record<string, unknown> {
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
): Promise<{ tripped: Record<string, unknown>[]; checked: number; truncated: boolean }> {
  const tripped: Record<string, unknown>[] = [];
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
  const app = new Hono<AdminEnv>();

  app.get("/v1/breakers", deps.auth, async (c) => {
    const tenant = c.get("principal").tenant;
    // Sinks serve every tenant: a tenant-bound token sees only its own endpoints.
    const [reports, endpoints] = await Promise.all([
      tenant === undefined ? deps.board.read() : undefined,
      endpointViews(deps, tenant),
    ]);
    const sinks = reports === undefined ? [] : deps.sinks.map((sink) => sinkBreakerView(sink, reports));
    return c.json({
      sinks,
      endpoints: endpoints.tripped,
      endpoints_checked: endpoints.checked,
      endpoints_truncated: endpoints.truncated,
    });
  });

  // Mounted on a plain app so it sits beside the public routes in createApp.
  return new Hono().route("/", app);
}

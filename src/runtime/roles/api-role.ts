// The `api` role: ingest, admin, documents and metrics on one HTTP server.
import { Hono, type MiddlewareHandler } from "hono";
import { type AdminEnv, TokenRegistry, requireAdmin } from "../../api/admin-auth.ts";
import { PORTAL_API_PATH, requirePortalSession } from "../../api/portal-auth.ts";
import { endpointTestEventRoutes } from "../../api/routes/endpoint-test-event.ts";
import { portalRoutes } from "../../api/routes/portal.ts";
import { portalCookieRoutes, portalLinkRoutes } from "../../api/routes/portal-sessions.ts";
import type { PublishDeps } from "../../fanout/publish-event.ts";
import type { JobRef } from "../../fanout/write-fanout.ts";
import { PortalSessionStore } from "../../store/portal-session-store.ts";
import { SitePolicy } from "../../api/write-guard.ts";
import { createApp } from "../../api/app.ts";
import { asyncApiForConfig } from "../../api/asyncapi-document.ts";
import { asyncApiRoutes } from "../../api/routes/asyncapi.ts";
import { breakerRoutes } from "../../api/routes/breakers.ts";
import { bullBoardRoutes } from "../../api/routes/bull-board.ts";
import { claimRoutes } from "../../api/routes/claims.ts";
import { corsRoutes } from "../../api/routes/cors.ts";
import { dlqRoutes } from "../../api/routes/dlq.ts";
import { endpointRoutes } from "../../api/routes/endpoints.ts";
import { deliveryRoutes } from "../../api/routes/deliveries.ts";
import { eventTypeRoutes } from "../../api/routes/event-types.ts";
import { MAX_CATALOG_ENTRIES } from "../../config/event-type-schema.ts";
import { EventCatalogStore } from "../../store/event-catalog-store.ts";
import { eventRoutes } from "../../api/routes/events.ts";
import { quarantineRoutes } from "../../api/routes/quarantine.ts";
import { EndpointStatsStore } from "../../store/endpoint-stats.ts";
import { QuarantineStore } from "../../store/quarantine-store.ts";
import { SharedSample } from "../../store/shared-sample.ts";
import { healthRoutes } from "../../api/routes/health.ts";
import { hookRoutes } from "../../api/routes/hooks.ts";
import { metricsRoutes } from "../../api/routes/metrics.ts";
import { openApiRoutes } from "../../api/routes/openapi.ts";
import { replayRoutes } from "../../api/routes/replays.ts";
import { webhookRoutes } from "../../api/routes/webhooks.ts";
import { readSharedBreaker } from "../../delivery/shared-breaker.ts";
import { DepthGate } from "../../ingest/depth-gate.ts";
import { IngestService } from "../../ingest/ingest-service.ts";
import { createMaintenanceQueue } from "../../queue/maintenance-queue.ts";
import { StoreUnavailable } from "../../domain/errors.ts";
import { waitForReplicas } from "../../store/replica-wait.ts";
import { drainHttp, listenHttp } from "../http-server.ts";
import type { Core } from "./core.ts";
import type { Resolver } from "../../fanout/ssrf-guard.ts";

export interface ApiRole {
  readonly app: Hono;
  /** The bound port, when listening. */
  readonly port: number | undefined;
}

export async function startApiRole(
  core: Core,
  opts: { listen: boolean; resolve?: Resolver },
): Promise<ApiRole> {
  const { config, keys, logger, metrics, redis, hooks, dlq, queues, replays, replayQueue, ledger } = core;
  const life = core.life.role("api");
  // One API process per interval reads the queue depths for all of them.
  const depthSample = new SharedSample(redis, keys.sampleTurn("queue-depths"), keys.sample("queue-depths"));
  const depth = new DepthGate(config, queues, depthSample, metrics, logger);
  await depth.start();
  life.onStop("depth gate", async () => depth.stop());
  const quarantine = new QuarantineStore(redis, keys, {
    maxEntries: config.quarantine.max_entries,
    maxBytes: config.quarantine.max_bytes,
    ttlS: config.quarantine.ttl_s,
  });
  const ingest = new IngestService({
    config,
    quarantine,
    hooks,
    jobs: queues,
    // The record's master and each job's queue's master (one Redis: the one).
    replicas: {
      wait: (hook, jobs, n, timeoutMs) =>
        waitForReplicas(redis, [keys.hook(hook), ...jobs.map((job) => queues.writtenKey(job))], n, timeoutMs),
    },
    depth,
    metrics,
    logger,
  });
  let draining = false;

  const tokens = new TokenRegistry(config.admin.tokens);
  const sites = new SitePolicy(config.admin.allowed_origins, config.http.public_url);
  const auth = requireAdmin(tokens, { sites });
  const maintenance = createMaintenanceQueue(redis, keys);
  const catalog = new EventCatalogStore(redis, keys, config.outbound.event_types, MAX_CATALOG_ENTRIES);
  life.onStop("maintenance queue", () => maintenance.close());
  // What publishing needs besides a principal: shared by POST /v1/events and an endpoint's test event.
  const publishDeps: Omit<PublishDeps, "endpoints"> = {
    events: core.events,
    jobs: queues,
    metrics,
    staleAfterMs: config.recovery.stale_after_ms,
    retentionS: config.retention_s,
    pageSize: config.outbound.fanout_page_size,
    maxPayloadBytes: config.http.max_body_bytes,
    ...(config.durability.wait_replicas > 0
      ? {
          confirmReplicas: async (eventRef: string, jobs: readonly JobRef[]) => {
            const { wait_replicas: n, wait_timeout_ms: timeoutMs } = config.durability;
            const written = [keys.event(eventRef), ...jobs.map((job) => queues.writtenKey(job))];
            const acked = await waitForReplicas(redis, written, n, timeoutMs);
            if (acked < n)
              throw new StoreUnavailable(new Error(`only ${acked} of ${n} replicas acknowledged the event`));
          },
        }
      : {}),
  };
  const endpointStats = new EndpointStatsStore(redis, keys);
  // The routes a tenant's principal uses: mounted once behind the admin tokens, and once more under
  // /portal/api behind the portal's session cookie (the same handlers, another way to be a principal).
  const tenantRoutes = (auth: MiddlewareHandler<AdminEnv>): Hono[] => [
    replayRoutes({
      replays,
      replayQueue,
      dlq,
      hooks,
      ledger,
      auth,
      maxPerTenant: config.replays.max_per_tenant,
    }),
    endpointRoutes({
      endpoints: core.endpoints,
      catalog,
      auth,
      allowPrivate: config.outbound.allow_private,
      logger,
      ...(opts.resolve ? { resolve: opts.resolve } : {}),
    }),
    eventRoutes({
      ...publishDeps,
      endpoints: core.endpoints,
      store: core.events,
      auth,
      tracing: core.tracing,
    }),
    endpointTestEventRoutes({ ...publishDeps, endpoints: core.endpoints, auth }),
    eventTypeRoutes({ catalog, auth }),
    deliveryRoutes({
      ledger,
      endpoints: core.endpoints,
      index: core.events.endpointIndex,
      stats: endpointStats,
      endpointBreaker: (id) => readSharedBreaker(redis, keys.endpointGate(id, "breaker")),
      auth,
    }),
  ];
  const portalSessions = new PortalSessionStore(redis, keys);
  // The portal's pages are the gateway's own: no other origin may send their writes.
  const portalSites = new SitePolicy([], config.http.public_url);
  const app = createApp(
    [
      // First, so its preflight answers and headers wrap every /v1 route.
      corsRoutes(config.admin.allowed_origins),
      healthRoutes({ redis, isDraining: () => draining }),
      metricsRoutes(metrics),
      webhookRoutes({
        ingest,
        metrics,
        sources: config.sources,
        maxBodyBytes: config.http.max_body_bytes,
        tracing: core.tracing,
      }),
      hookRoutes({ hooks, auth }),
      dlqRoutes({ dlq, ledger, queues, auth }),
      breakerRoutes({
        sinks: Object.keys(config.sinks),
        sinkBreaker: (sink) => readSharedBreaker(redis, keys.sinkGate(sink, "breaker")),
        endpoints: core.endpoints,
        endpointBreaker: (id) => readSharedBreaker(redis, keys.endpointGate(id, "breaker")),
        auth,
      }),
      claimRoutes({ hooks, auth, signer: core.claimSigner }),
      quarantineRoutes({ quarantine, auth }),
      ...tenantRoutes(auth),
      portalLinkRoutes({ sessions: portalSessions, auth, publicUrl: config.http.public_url }),
      portalRoutes({
        sessions: portalSessions,
        session: portalCookieRoutes({
          sessions: portalSessions,
          sites: portalSites,
          publicUrl: config.http.public_url,
        }),
        api: createApp(
          tenantRoutes(requirePortalSession(portalSessions, portalSites)).map((group) =>
            new Hono().route(PORTAL_API_PATH, group),
          ),
          logger,
        ),
        embedOrigins: config.portal.embed_origins,
      }),
      bullBoardRoutes({ tokens, sites, queues: [...queues.boardQueues(), replayQueue.queue, maintenance] }),
      asyncApiRoutes(await asyncApiForConfig(config, logger)),
      openApiRoutes(),
    ],
    logger,
  );
  if (!opts.listen) return { app, port: undefined };

  const { server, port } = await listenHttp(app, config.http);
  life.onStop("http server", async (deadline) => {
    // New ingests answer 503 from here on; requests in progress finish, or are cut at the deadline.
    draining = true;
    ingest.drain();
    await drainHttp(server, deadline);
  });
  return { app, port };
}

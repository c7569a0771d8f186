// /v1/endpoints: register, list, change and remove the outbound endpoints events fan out to, and rotate
// their signing secrets. A tenant-bound token works only on its tenant's endpoints (others answer 404, like
// every /v1 route); a secret is shown once, in the answer that made it, and never again.
import { Hono, type MiddlewareHandler } from "hono";
import type { z } from "zod";
import { type Endpoint, secretProblem } from "../../domain/endpoint.ts";
import { undeclaredPatterns } from "../../domain/event-catalog.ts";
import { isId } from "../../domain/ids.ts";
import { endpointSnapshot } from "../../domain/endpoint-snapshot.ts";
import { type Resolver, SsrfBlockedError, checkDestination } from "../../fanout/ssrf-guard.ts";
import type { Logger } from "../../observability/logger.ts";
import { EndpointLimitReached, type EndpointStore } from "../../store/endpoint-store.ts";
import type { EventCatalogStore } from "../../store/event-catalog-store.ts";
import { type AdminEnv, canSee } from "../admin-auth.ts";
import { ApiError } from "../api-error.ts";
import type { Endpoint as EndpointSchema } from "../contract/endpoints.ts";
import {
  type EndpointWithSecret,
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listEndpoints,
  patchEndpoint,
  rotateEndpointSecret,
} from "../contract/endpoints.ts";
import { parseLimit } from "../filters.ts";
import { ENDPOINT_BODY_MAX_BYTES } from "../read-body.ts";
import { apiGroup, cappedJson } from "../route-group.ts";

export interface EndpointRouteDeps {
  readonly endpoints: EndpointStore;
  /** The event catalog: a new endpoint's subscriptions to types nobody declared come back as warnings. */
  readonly catalog: Pick<EventCatalogStore, "names">;
  readonly auth: MiddlewareHandler<AdminEnv>;
  /** Let endpoint URLs point at private, loopback and other internal addresses (never at metadata services). */
  readonly allowPrivate: boolean;
  /** Resolves endpoint host names for the registration check (default: the system resolver). */
  readonly resolve?: Resolver;
  /** Where a refused URL's detail goes (what its host resolved to): never into the answer. */
  readonly logger?: Logger;
}

const invalid = (message: string): ApiError => new ApiError(400, "invalid_request", message);
const notFound = (): ApiError => new ApiError(404, "not_found", "no such endpoint");

/** An endpoint as the API shows it: the snapshot operational events carry too (domain/endpoint-snapshot.ts). */
export function endpointView(e: Endpoint): z.infer<typeof EndpointSchema> {
  return endpointSnapshot(e);
}

/** The view plus the secret: only for the answer that created or rotated it. */
const withSecret = (e: Endpoint): z.infer<typeof EndpointWithSecret> => ({
  ...endpointView(e),
  secret: e.secret,
});

export function encodeEndpointCursor(id: string): string {
  return Buffer.from(id, "utf8").toString("base64url");
}

function decodeEndpointCursor(value: string): string {
  const id = Buffer.from(value, "base64url").toString("utf8");
  if (!isId("ep", id)) throw invalid("cursor is not one this API returned");
  return id;
}

function checkSecret(secret: string): void {
  const problem = secretProblem(secret);
  if (problem !== undefined) throw invalid(`secret: ${problem}`);
}

export function endpointRoutes(deps: EndpointRouteDeps): Hono {
  const app = apiGroup<AdminEnv>();
  const body = cappedJson<AdminEnv>(ENDPOINT_BODY_MAX_BYTES);

  /**
   * Normalize the URL and refuse internal destinations; answers 400 with the guard's public reason (what
   * a name resolved to is logged, not answered: it would map the gateway's network for a tenant).
   */
  async function vetUrl(url: string): Promise<string> {
    try {
      await checkDestination(url, {
        allowPrivate: deps.allowPrivate,
        ...(deps.resolve ? { resolve: deps.resolve } : {}),
      });
    } catch (err) {
      if (err instanceof SsrfBlockedError) {
        deps.logger?.info(
          { reason: err.reason, detail: err.message },
          "endpoint URL refused by the SSRF guard",
        );
        throw invalid(`url: refused: ${err.publicMessage}`);
      }
      throw err;
    }
    return new URL(url).href;
  }

  const visible = async (id: string, tenant: string | undefined): Promise<Endpoint> => {
    const endpoint = isId("ep", id) ? await deps.endpoints.get(id) : undefined;
    if (!endpoint || !canSee({ tenant }, endpoint.tenant)) throw notFound();
    return endpoint;
  };

  app.openapi({ ...createEndpoint, middleware: [deps.auth, body] as const }, async (c) => {
    const body = c.req.valid("json");
    const bound = c.get("principal").tenant;
    if (bound !== undefined && body.tenant !== undefined && body.tenant !== bound)
      throw invalid("tenant: this token can only create endpoints of its own tenant");
    if (body.secret !== undefined) checkSecret(body.secret);
    const tenant = bound ?? body.tenant;
    const url = await vetUrl(body.url);
    try {
      const endpoint = await deps.endpoints.create({
        ...body,
        url,
        ...(tenant !== undefined ? { tenant } : {}),
      });
      const warnings = undeclaredPatterns(endpoint.event_types, await deps.catalog.names()).map((type) => ({
        code: "undeclared_event_type" as const,
        event_type: type,
        message: type.endsWith(".*")
          ? `no event type in the catalog matches "${type}"`
          : `"${type}" is not an event type in the catalog`,
      }));
      return c.json({ ...withSecret(endpoint), warnings }, 201);
    } catch (err) {
      if (err instanceof EndpointLimitReached) throw new ApiError(409, "too_many_endpoints", err.message);
      throw err;
    }
  });

  app.openapi({ ...listEndpoints, middleware: [deps.auth] as const }, async (c) => {
    const q = c.req.query();
    const bound = c.get("principal").tenant;
    if (q.tenant !== undefined && q.tenant !== "" && bound !== undefined && q.tenant !== bound)
      throw invalid("tenant: this token can only list endpoints of its own tenant");
    const tenant = bound ?? (q.tenant === "" ? undefined : q.tenant);
    const page = await deps.endpoints.list({
      limit: parseLimit(q.limit),
      ...(tenant !== undefined ? { tenant } : {}),
      ...(q.cursor !== undefined && q.cursor !== "" ? { cursor: decodeEndpointCursor(q.cursor) } : {}),
    });
    return c.json(
      {
        data: page.endpoints.map(endpointView),
        next_cursor: page.next === undefined ? null : encodeEndpointCursor(page.next),
      },
      200,
    );
  });

  app.openapi({ ...getEndpoint, middleware: [deps.auth] as const }, async (c) => {
    return c.json(endpointView(await visible(c.req.param("id"), c.get("principal").tenant)), 200);
  });

  app.openapi({ ...patchEndpoint, middleware: [deps.auth, body] as const }, async (c) => {
    const current = await visible(c.req.param("id"), c.get("principal").tenant);
    const { tenant, url, ...rest } = c.req.valid("json");
    if (tenant !== undefined) throw invalid("tenant: cannot be changed; create a new endpoint instead");
    const updated = await deps.endpoints.update(current.id, {
      ...rest,
      ...(url !== undefined ? { url: await vetUrl(url) } : {}),
    });
    if (!updated) throw notFound();
    return c.json(endpointView(updated), 200);
  });

  app.openapi({ ...deleteEndpoint, middleware: [deps.auth] as const }, async (c) => {
    const current = await visible(c.req.param("id"), c.get("principal").tenant);
    if (!(await deps.endpoints.delete(current.id))) throw notFound();
    return c.body(null, 204);
  });

  const optionalBody = cappedJson<AdminEnv>(ENDPOINT_BODY_MAX_BYTES, { emptyIsObject: true });
  app.openapi({ ...rotateEndpointSecret, middleware: [deps.auth, optionalBody] as const }, async (c) => {
    const current = await visible(c.req.param("id"), c.get("principal").tenant);
    const { secret } = c.req.valid("json");
    if (secret !== undefined) {
      checkSecret(secret);
      if (secret === current.secret) throw invalid("secret: is the current secret");
    }
    let rotated: Endpoint | undefined;
    try {
      rotated = await deps.endpoints.rotateSecret(current.id, secret);
    } catch (err) {
      // A concurrent rotation to the same secret: the store's own check.
      if (err instanceof RangeError) throw invalid(`secret: ${err.message}`);
      throw err;
    }
    if (!rotated) throw notFound();
    return c.json(withSecret(rotated), 200);
  });

  // Mounted on a plain app so it sits beside the public routes in createApp.
  return new Hono().route("/", app);
}

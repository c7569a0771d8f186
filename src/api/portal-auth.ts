// Portal sessions as principals: the /v1 handlers the portal reuses see a tenant-bound principal, as
// with a tenant-bound admin token. The session rides in a cookie (HttpOnly, SameSite=Strict, Path=/portal),
// which a browser attaches by itself, so every write also passes the cross-site write guard (own
// origin, JSON body), and a read-only session's writes are refused here, before any handler runs.
import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import type { PortalGrant, PortalSessionStore } from "../store/portal-session-store.ts";
import type { AdminEnv } from "./admin-auth.ts";
import { ApiError } from "./api-error.ts";
import { type SitePolicy, guardWrite } from "./write-guard.ts";

export const PORTAL_PATH = "/portal";
/** Where the portal's script reaches the /v1 handlers with its session: `/portal/api/v1/…`. */
export const PORTAL_API_PATH = `${PORTAL_PATH}/api`;
export const PORTAL_COOKIE = "switchyard_portal";

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** The session grant of the request's cookie, or undefined. */
export async function portalGrantOf(c: Context, store: PortalSessionStore): Promise<PortalGrant | undefined> {
  const token = getCookie(c, PORTAL_COOKIE);
  return token === undefined ? undefined : store.session(token);
}

/**
 * Middleware for the /v1 handlers under /portal/api: 401 without a live session; for writes 403 from a
 * foreign page, 415 when not JSON, 403 for a read-only session. Sets `principal` to the session's tenant.
 */
export function requirePortalSession(
  store: PortalSessionStore,
  sites: SitePolicy,
): MiddlewareHandler<AdminEnv> {
  return async (c, next) => {
    const grant = await portalGrantOf(c, store);
    if (!grant)
      throw new ApiError(401, "unauthorized", "the portal session has ended; open a new portal link");
    guardWrite(c.req.raw, sites, "every-write");
    if (grant.readOnly && WRITES.has(c.req.method))
      throw new ApiError(403, "forbidden", "this portal session is read-only");
    c.set("principal", { tenant: grant.tenant });
    await next();
  };
}

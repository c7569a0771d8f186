// Magic links into the tenant portal. An admin (an unscoped token, or one bound to the tenant) mints a
// link: `<origin>/portal#<token>`, the single-use token in the fragment, which browsers never send, so
// it reaches no access log. The page's script posts it once to /portal/session and gets the session
// cookie back; a second use is refused. Both end at the link's `expires_at`.
import { Hono, type MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { z } from "zod";
import type { PortalSessionStore } from "../../store/portal-session-store.ts";
import { type AdminEnv, canSee } from "../admin-auth.ts";
import { ApiError } from "../api-error.ts";
import { PORTAL_DEFAULT_TTL_S, PORTAL_MAX_TTL_S, createPortalSession } from "../contract/portal.ts";
import { PORTAL_COOKIE, PORTAL_PATH } from "../portal-auth.ts";
import { readJsonCapped } from "../read-body.ts";
import { apiGroup, cappedJson } from "../route-group.ts";
import { type SitePolicy, guardWrite } from "../write-guard.ts";

export { PORTAL_DEFAULT_TTL_S, PORTAL_MAX_TTL_S };
const BODY_MAX_BYTES = 4096;

export interface PortalSessionRouteDeps {
  readonly sessions: PortalSessionStore;
  readonly auth: MiddlewareHandler<AdminEnv>;
  /** The portal pages' own origin policy (the gateway's origin and http.public_url's). */
  readonly sites: SitePolicy;
  /** http.public_url: the links' origin, and whether the cookie is Secure. Unset: the request's origin. */
  readonly publicUrl: string | undefined;
}

const exchangeBody = z.strictObject({ token: z.string().max(200) });

async function parse<T>(req: Request, schema: z.ZodType<T>): Promise<T> {
  const parsed = schema.safeParse(await readJsonCapped(req, BODY_MAX_BYTES));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new ApiError(
    400,
    "invalid_request",
    `${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}`,
  );
}

/** POST /v1/portal/sessions: an admin mints a link (declared in contract/portal.ts). */
export function portalLinkRoutes(deps: Omit<PortalSessionRouteDeps, "sites">): Hono {
  const app = apiGroup<AdminEnv>();
  const capped = cappedJson<AdminEnv>(BODY_MAX_BYTES);

  app.openapi({ ...createPortalSession, middleware: [deps.auth, capped] as const }, async (c) => {
    const input = c.req.valid("json");
    const body = {
      tenant: input.tenant,
      ttl_s: input.ttl_s ?? PORTAL_DEFAULT_TTL_S,
      read_only: input.read_only ?? false,
    };
    // Like any tenant-bound token's view of another tenant: as if it did not exist.
    if (!canSee(c.get("principal"), body.tenant)) throw new ApiError(404, "not_found", "no such tenant");
    const expiresAt = Date.now() + body.ttl_s * 1000;
    const token = await deps.sessions.mintLink({
      tenant: body.tenant,
      readOnly: body.read_only,
      expiresAt,
    });
    const origin = deps.publicUrl?.replace(/\/+$/, "") ?? new URL(c.req.url).origin;
    return c.json(
      {
        url: `${origin}${PORTAL_PATH}#${token}`,
        expires_at: new Date(expiresAt).toISOString(),
        tenant: body.tenant,
        read_only: body.read_only,
      },
      201,
    );
  });

  // Mounted on a plain app so it sits beside the public routes in createApp.
  return new Hono().route("/", app);
}

/**
 * /portal/session: the page trades a link's token for the session cookie (POST), or signs out (DELETE).
 * A browser page's exchange, not JSON API: not in /openapi.json (the conformance test skips /portal).
 */
export function portalCookieRoutes(deps: Omit<PortalSessionRouteDeps, "auth">): Hono {
  const app = new Hono();
  const secure = deps.publicUrl !== undefined && new URL(deps.publicUrl).protocol === "https:";

  app.post(`${PORTAL_PATH}/session`, async (c) => {
    guardWrite(c.req.raw, deps.sites, "every-write");
    const { token } = await parse(c.req.raw, exchangeBody);
    const used = await deps.sessions.exchange(token);
    if (!used)
      throw new ApiError(
        401,
        "unauthorized",
        "this portal link was already used or has expired; ask for a new one",
      );
    setCookie(c, PORTAL_COOKIE, used.session, {
      path: PORTAL_PATH,
      httpOnly: true,
      sameSite: "Strict",
      secure,
      expires: new Date(used.grant.expiresAt),
    });
    return c.json({
      tenant: used.grant.tenant,
      read_only: used.grant.readOnly,
      expires_at: new Date(used.grant.expiresAt).toISOString(),
    });
  });

  app.delete(`${PORTAL_PATH}/session`, async (c) => {
    guardWrite(c.req.raw, deps.sites, "post-or-declared");
    const token = getCookie(c, PORTAL_COOKIE);
    if (token !== undefined) await deps.sessions.end(token);
    deleteCookie(c, PORTAL_COOKIE, { path: PORTAL_PATH, httpOnly: true, sameSite: "Strict", secure });
    return c.body(null, 204);
  });

  return app;
}

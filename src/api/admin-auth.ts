// Admin authentication: bearer tokens from `admin.tokens` on the JSON API; on the browser pages
// (/admin/queues) also HTTP basic auth with the token as the password. Basic auth is kept off the JSON
// API because a browser replays it on requests other sites start. A token bound to a tenant sees only
// that tenant's data. Writes also pass the cross-site guard (write-guard.ts).
import { createHash, timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import type { AdminTokenConfig } from "../config/schema.ts";
import { ApiError } from "./api-error.ts";
import { SitePolicy, guardWrite } from "./write-guard.ts";

/** Who is calling: `tenant` undefined means every tenant. */
export interface Principal {
  readonly tenant: string | undefined;
}

export type AdminEnv = { Variables: { principal: Principal } };

interface KnownToken {
  readonly digest: Buffer;
  readonly tenant: string | undefined;
}

const digest = (value: string): Buffer => createHash("sha256").update(value).digest();

/**
 * The token a request presents, from `Authorization: Bearer …`, or also `Basic base64(user:token)` when
 * `basic` (the browser pages).
 */
export function presentedToken(authorization: string | undefined, basic: boolean): string | undefined {
  if (!authorization) return undefined;
  const [scheme, value] = authorization.split(" ", 2);
  if (!value) return undefined;
  if (scheme?.toLowerCase() === "bearer") return value.trim();
  if (basic && scheme?.toLowerCase() === "basic") {
    const decoded = Buffer.from(value, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    return colon >= 0 ? decoded.slice(colon + 1) : undefined;
  }
  return undefined;
}

export class TokenRegistry {
  private readonly tokens: KnownToken[];

  constructor(config: readonly AdminTokenConfig[]) {
    this.tokens = config
      .map((t) => (typeof t === "string" ? { token: t, tenant: undefined } : t))
      .filter((t) => t.token.length > 0)
      .map((t) => ({ digest: digest(t.token), tenant: t.tenant }));
  }

  /** The principal of `token`, comparing against every known token in constant time. */
  authenticate(token: string | undefined): Principal | undefined {
    if (token === undefined) return undefined;
    const presented = digest(token);
    let found: Principal | undefined;
    for (const known of this.tokens) {
      if (timingSafeEqual(presented, known.digest) && found === undefined) found = { tenant: known.tenant };
    }
    return found;
  }
}

export interface AdminAuthOptions {
  /** A browser page: basic auth is accepted too, and asked for with this realm. Unset: bearer tokens only. */
  readonly basicRealm?: string;
  /** Origins besides the gateway's own that may send writes; default: none. */
  readonly sites?: SitePolicy;
}

/**
 * Middleware: 401 without a valid token; then, for writes, 403 from a foreign page and 415 when not JSON
 * (every write on the JSON API; on a browser page every POST and any write that declares a body type).
 * Sets `principal`.
 */
export function requireAdmin(
  registry: TokenRegistry,
  opts: AdminAuthOptions = {},
): MiddlewareHandler<AdminEnv> {
  const browser = opts.basicRealm !== undefined;
  const challenge = browser ? `Basic realm="${opts.basicRealm}"` : 'Bearer realm="switchyard"';
  const sites = opts.sites ?? new SitePolicy();
  return async (c, next) => {
    const authorization = c.req.header("authorization");
    const principal = registry.authenticate(presentedToken(authorization, browser));
    if (!principal) {
      const basic = !browser && authorization?.toLowerCase().startsWith("basic ") === true;
      throw new ApiError(
        401,
        "unauthorized",
        basic
          ? "the admin API takes bearer tokens (Authorization: Bearer <token>); basic auth is for /admin/queues"
          : "a valid admin token is required",
        { "www-authenticate": challenge },
      );
    }
    guardWrite(c.req.raw, sites, browser ? "post-or-declared" : "every-write");
    c.set("principal", principal);
    await next();
  };
}

/** May `principal` see data of `tenant`? Callers answer 404 (not 403) when not, so ids do not leak. */
export function canSee(principal: Principal, tenant: string | undefined): boolean {
  return principal.tenant === undefined || principal.tenant === tenant;
}

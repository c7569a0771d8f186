// Admin authentication: bearer tokens from `admin.tokens` (or HTTP basic auth with the token as the
// password, for browsers on /admin/queues). A token bound to a tenant sees only that tenant's data.
import { createHash, timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import type { AdminTokenConfig } from "../config/schema.ts";
import { ApiError } from "./api-error.ts";

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

/** The token a request presents, from `Authorization: Bearer …` or `Basic base64(user:token)`. */
export function presentedToken(authorization: string | undefined): string | undefined {
  if (!authorization) return undefined;
  const [scheme, value] = authorization.split(" ", 2);
  if (!value) return undefined;
  if (scheme?.toLowerCase() === "bearer") return value.trim();
  if (scheme?.toLowerCase() === "basic") {
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

/** Middleware: 401 without a valid token; sets `principal`. `basicRealm` asks browsers for basic auth. */
export function requireAdmin(
  registry: TokenRegistry,
  opts: { basicRealm?: string } = {},
): MiddlewareHandler<AdminEnv> {
  const challenge = opts.basicRealm ? `Basic realm="${opts.basicRealm}"` : 'Bearer realm="switchyard"';
  return async (c, next) => {
    const principal = registry.authenticate(presentedToken(c.req.header("authorization")));
    if (!principal)
      throw new ApiError(401, "unauthorized", "a valid admin token is required", {
        "www-authenticate": challenge,
      });
    c.set("principal", principal);
    await next();
  };
}

/** May `principal` see data of `tenant`? Callers answer 404 (not 403) when not, so ids do not leak. */
export function canSee(principal: Principal, tenant: string | undefined): boolean {
  return principal.tenant === undefined || principal.tenant === tenant;
}

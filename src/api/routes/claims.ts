// GET /v1/claims/:id: the claim check. Queue sinks send consumers a signed, expiring URL instead of a
// large body; the answer is the hook's body bytes exactly as the provider sent them, read from the one
// copy in the record. Those bytes are the sender's choice, so they are always a download: never
// rendered or sniffed by a browser, never cached.
import { Hono, type MiddlewareHandler } from "hono";
import type { ClaimSigner } from "../../domain/claim-signature.ts";
import { STORE_RETRY_AFTER_S } from "../../domain/errors.ts";
import { isId } from "../../domain/ids.ts";
import type { HookRecord } from "../../domain/hook.ts";
import type { HookStore } from "../../store/hook-store.ts";
import { type AdminEnv, canSee } from "../admin-auth.ts";
import { ApiError } from "../api-error.ts";
import { getClaim } from "../contract/ledger.ts";
import { apiGroup } from "../route-group.ts";

export interface ClaimRouteDeps {
  readonly hooks: HookStore;
  /** Admin authentication (`requireAdmin`): sets the principal whose tenant the claim must belong to. */
  readonly auth: MiddlewareHandler<AdminEnv>;
  /** Checks the `exp` and `sig` of a signed claim URL. */
  readonly signer: ClaimSigner;
}

/** Header carrying the hex sha256 of the body, so a consumer can check what it fetched. */
export const SHA256_HEADER = "x-switchyard-sha256";

export function claimRoutes(deps: ClaimRouteDeps): Hono {
  const app = apiGroup<AdminEnv>();
  // A valid signature grants its one id to anyone holding the URL; without one, an admin token.
  const signedOrAdmin: MiddlewareHandler<AdminEnv> = async (c, next) => {
    if (deps.signer.verify(c.req.param("id") ?? "", c.req.query("exp"), c.req.query("sig"))) {
      c.set("principal", { tenant: undefined });
      await next();
      return;
    }
    await deps.auth(c, next);
  };

  app.openapi({ ...getClaim, middleware: [signedOrAdmin] as const }, async (c) => {
    const id = c.req.param("id");
    // One answer for malformed, unknown, expired and other tenants' ids, so none of them leaks.
    const notFound = new ApiError(404, "not_found", "no such claim");
    if (!isId("hk", id)) throw notFound;
    const principal = c.get("principal");
    let hook: HookRecord | undefined;
    try {
      // A tenant token's tenant is checked on a short read first: another tenant's body is never loaded,
      // so its 404 costs what a missing claim's does.
      if (principal.tenant !== undefined) {
        const summary = await deps.hooks.summary(id);
        if (!summary || !canSee(principal, summary.tenant)) throw notFound;
      }
      hook = await deps.hooks.record(id);
    } catch (err) {
      if (err === notFound) throw err;
      throw new ApiError(503, "store_unavailable", "the hook store is unavailable", {
        "retry-after": String(STORE_RETRY_AFTER_S),
      });
    }
    if (!hook || !canSee(principal, hook.tenant)) throw notFound;
    return c.body(
      new Uint8Array(hook.body.buffer as ArrayBuffer, hook.body.byteOffset, hook.body.byteLength),
      200,
      {
        // The provider's content type travels in the queue message; here the bytes are only bytes.
        "content-type": "application/octet-stream",
        "content-disposition": `attachment; filename="${hook.id}.bin"`,
        "x-content-type-options": "nosniff",
        "content-security-policy": "default-src 'none'; sandbox",
        "cache-control": "no-store",
        "content-length": String(hook.body.byteLength),
        [SHA256_HEADER]: hook.sha256,
        etag: `"${hook.sha256}"`,
      },
    );
  });
  // Mounted like every route group, whose env carries no principal.
  return new Hono().route("/", app);
}

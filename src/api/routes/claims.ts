// GET /v1/claims/:id: the claim check. Queue sinks send consumers this URL instead of a large body; the
// answer is the hook's body bytes exactly as the provider sent them, read from the one copy in the record.
import { Hono, type MiddlewareHandler } from "hono";
import { isId } from "../../domain/ids.ts";
import type { HookStore, StoredHook } from "../../store/hook-store.ts";
import { type AdminEnv, canSee } from "../admin-auth.ts";
import { ApiError } from "../api-error.ts";

export interface ClaimRouteDeps {
  readonly hooks: HookStore;
  /** Admin authentication (`requireAdmin`): sets the principal whose tenant the claim must belong to. */
  readonly auth: MiddlewareHandler<AdminEnv>;
}

/** Header carrying the hex sha256 of the body, so a consumer can check what it fetched. */
export const SHA256_HEADER = "x-switchyard-sha256";
const STORE_RETRY_AFTER_S = "5";

export function claimRoutes(deps: ClaimRouteDeps): Hono {
  const app = new Hono<AdminEnv>();
  app.get("/v1/claims/:id", deps.auth, async (c) => {
    const id = c.req.param("id");
    // One answer for malformed, unknown, expired and other tenants' ids, so none of them leaks.
    const notFound = new ApiError(404, "not_found", "no such claim");
    if (!isId("hk", id)) throw notFound;
    let stored: StoredHook | undefined;
    try {
      stored = await deps.hooks.load(id);
    } catch {
      throw new ApiError(503, "store_unavailable", "the hook store is unavailable", {
        "retry-after": STORE_RETRY_AFTER_S,
      });
    }
    if (!stored || !canSee(c.get("principal"), stored.hook.tenant)) throw notFound;
    const { hook } = stored;
    return c.body(
      new Uint8Array(hook.body.buffer as ArrayBuffer, hook.body.byteOffset, hook.body.byteLength),
      200,
      {
        "content-type": hook.contentType ?? "application/octet-stream",
        "content-length": String(hook.body.byteLength),
        [SHA256_HEADER]: hook.sha256,
        // The bytes behind a claim never change; the sha256 names them.
        etag: `"${hook.sha256}"`,
        "cache-control": "private, max-age=3600, immutable",
      },
    );
  });
  // Mounted like every route group, whose env carries no principal.
  return new Hono().route("/", app);
}

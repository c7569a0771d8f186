// GET /v1/hooks/:id: what happened to one hook, for an operator answering "did it arrive, and where
// did it go?". Metadata and one delivery row per sink by default; the body only when asked for.
import { Hono, type MiddlewareHandler } from "hono";
import type { z } from "zod";
import { isId } from "../../domain/ids.ts";
import type { HookStore } from "../../store/hook-store.ts";
import { type AdminEnv, canSee } from "../admin-auth.ts";
import { ApiError } from "../api-error.ts";
import { type Delivery, getHook } from "../contract/ledger.ts";
import { apiGroup } from "../route-group.ts";
import { CREDENTIAL_HEADER, deliveryView, isoAt } from "../views.ts";

export interface HookRouteDeps {
  readonly hooks: HookStore;
  readonly auth: MiddlewareHandler<AdminEnv>;
}

export function hookRoutes(deps: HookRouteDeps): Hono {
  const app = apiGroup<AdminEnv>();

  app.openapi({ ...getHook, middleware: [deps.auth] as const }, async (c) => {
    const id = c.req.param("id");
    const notFound = new ApiError(404, "not_found", "no such hook");
    if (!isId("hk", id)) throw notFound;
    // Another tenant's hook answers exactly like a missing one, so ids do not leak: its tenant is read
    // first (a short read), and only a hook the caller may see is loaded, body and rows included.
    const principal = c.get("principal");
    if (principal.tenant !== undefined) {
      const summary = await deps.hooks.summary(id);
      if (!summary || !canSee(principal, summary.tenant)) throw notFound;
    }
    const stored = await deps.hooks.load(id);
    if (!stored || !canSee(principal, stored.hook.tenant)) throw notFound;
    const { hook } = stored;
    const headers = Object.fromEntries(
      Object.entries(hook.headers).map(([k, v]) => [k, CREDENTIAL_HEADER.test(k) ? "[redacted]" : v]),
    );
    const includeBody = (c.req.query("include") ?? "").split(",").includes("body");
    return c.json(
      {
        id: hook.id,
        source: hook.source,
        tenant: hook.tenant,
        received_at: isoAt(hook.receivedAt),
        size: hook.body.length,
        content_type: hook.contentType,
        sha256: hook.sha256,
        dedup_key: hook.dedupKey,
        idempotency_key: hook.idempotencyKey,
        headers,
        sinks: Object.fromEntries(
          Object.entries(stored.deliveries).flatMap(([sink, row]): [string, z.infer<typeof Delivery>][] =>
            row ? [[sink, deliveryView(row)]] : [],
          ),
        ),
        ...(includeBody ? { body_base64: hook.body.toString("base64") } : {}),
      },
      200,
    );
  });

  // Mounted on a plain app so it sits beside the public routes in createApp.
  return new Hono().route("/", app);
}

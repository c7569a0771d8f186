// GET /v1/hooks/:id: what happened to one hook, for an operator answering "did it arrive, and where
// did it go?". Metadata and per-sink state by default; the body only when asked for.
import { Hono, type MiddlewareHandler } from "hono";
import type { SinkDeliveryState } from "../../domain/delivery-state.ts";
import { type HookId, isId } from "../../domain/ids.ts";
import { deliveryJobId } from "../../queue/delivery-job.ts";
import type { HookStore } from "../../store/hook-store.ts";
import { type AdminEnv, canSee } from "../admin-auth.ts";
import { ApiError } from "../api-error.ts";

export interface HookRouteDeps {
  readonly hooks: HookStore;
  readonly auth: MiddlewareHandler<AdminEnv>;
}

/** Request headers a provider may send that are credentials, not data: masked in answers. */
export const CREDENTIAL_HEADER =
  /^(authorization|proxy-authorization|cookie)$|api[-_]?key|token|secret|password/i;

/** Milliseconds since the epoch as ISO 8601, or undefined. */
export function iso(ms: number | undefined): string | undefined {
  return ms === undefined || !Number.isFinite(ms) ? undefined : new Date(ms).toISOString();
}

/** A sink's delivery state with timestamps as ISO strings, and the DLQ id when it is dead. */
export function sinkStateView(hookId: HookId, sink: string, s: SinkDeliveryState): Record<string, unknown> {
  return {
    state: s.state,
    attempts: s.attempts,
    first_attempt_at: iso(s.first_attempt_at),
    last_attempt_at: iso(s.last_attempt_at),
    next_attempt_at: iso(s.next_attempt_at),
    delivered_at: iso(s.delivered_at),
    last_error: s.last_error,
    error_class: s.error_class,
    replay_id: s.replay_id,
    dlq_id: s.state === "dead" ? deliveryJobId(hookId, sink) : undefined,
  };
}

export function hookRoutes(deps: HookRouteDeps): Hono {
  const app = new Hono<AdminEnv>();

  app.get("/v1/hooks/:id", deps.auth, async (c) => {
    const id = c.req.param("id");
    const stored = isId("hk", id) ? await deps.hooks.load(id) : undefined;
    // Another tenant's hook answers exactly like a missing one, so ids do not leak.
    if (!stored || !canSee(c.get("principal"), stored.hook.tenant))
      throw new ApiError(404, "not_found", "no such hook");
    const { hook } = stored;
    const headers = Object.fromEntries(
      Object.entries(hook.headers).map(([k, v]) => [k, CREDENTIAL_HEADER.test(k) ? "[redacted]" : v]),
    );
    const includeBody = (c.req.query("include") ?? "").split(",").includes("body");
    return c.json({
      id: hook.id,
      source: hook.source,
      tenant: hook.tenant,
      received_at: iso(hook.receivedAt),
      size: hook.body.length,
      content_type: hook.contentType,
      sha256: hook.sha256,
      dedup_key: hook.dedupKey,
      idempotency_key: hook.idempotencyKey,
      headers,
      sinks: Object.fromEntries(
        Object.entries(stored.sinkStates).map(([sink, state]) => [sink, sinkStateView(hook.id, sink, state)]),
      ),
      ...(includeBody ? { body_base64: hook.body.toString("base64") } : {}),
    });
  });

  // Mounted on a plain app so it sits beside the public routes in createApp.
  return new Hono().route("/", app);
}

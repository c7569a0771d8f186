// GET /v1/quarantine and GET /v1/quarantine/:id: the hooks that failed verification and were kept
// (on_verify_failure: quarantine), for an operator working out why a provider's signatures fail.
import { Hono, type MiddlewareHandler } from "hono";
import type { z } from "zod";
import { isId } from "../../domain/ids.ts";
import type { QuarantineStore, QuarantinedHook } from "../../store/quarantine-store.ts";
import { type AdminEnv, canSee } from "../admin-auth.ts";
import { ApiError } from "../api-error.ts";
import {
  type QuarantinedHook as QuarantinedView,
  getQuarantined,
  listQuarantine,
} from "../contract/ledger.ts";
import { apiGroup } from "../route-group.ts";
import { parseInstant, parseLimit } from "../filters.ts";
import { CREDENTIAL_HEADER, isoAt } from "../views.ts";

export interface QuarantineRouteDeps {
  readonly quarantine: Pick<QuarantineStore, "list" | "get">;
  readonly auth: MiddlewareHandler<AdminEnv>;
}

function view(q: QuarantinedHook, withBody: boolean): z.infer<typeof QuarantinedView> {
  return {
    id: q.id,
    source: q.source,
    tenant: q.tenant,
    received_at: isoAt(q.received_at),
    reason: q.reason,
    size: q.size,
    headers: Object.fromEntries(
      Object.entries(q.headers).map(([k, v]) => [k, CREDENTIAL_HEADER.test(k) ? "[redacted]" : v]),
    ),
    ...(withBody && q.body ? { body_base64: q.body.toString("base64") } : {}),
  };
}

export function quarantineRoutes(deps: QuarantineRouteDeps): Hono {
  const app = apiGroup<AdminEnv>();

  app.openapi({ ...listQuarantine, middleware: [deps.auth] as const }, async (c) => {
    const limit = parseLimit(c.req.query("limit"));
    const before = c.req.query("before");
    const tenant = c.get("principal").tenant;
    const entries = await deps.quarantine.list({
      limit,
      ...(before ? { before: parseInstant(before, "before") } : {}),
      ...(tenant !== undefined ? { tenant } : {}),
    });
    return c.json({ data: entries.map((q) => view(q, false)) }, 200);
  });

  app.openapi({ ...getQuarantined, middleware: [deps.auth] as const }, async (c) => {
    const id = c.req.param("id");
    const entry = isId("hk", id) ? await deps.quarantine.get(id) : undefined;
    if (!entry || !canSee(c.get("principal"), entry.tenant))
      throw new ApiError(404, "not_found", "no such entry");
    return c.json(view(entry, (c.req.query("include") ?? "").split(",").includes("body")), 200);
  });

  // Mounted on a plain app so it sits beside the public routes in createApp.
  return new Hono().route("/", app);
}

// GET /v1/dlq and DELETE /v1/dlq/:id: browsing and purging dead deliveries. A page walks the
// narrowest DLQ index from an opaque (dead_at, id) cursor, so it costs O(page) however big the DLQ is.
import { Hono, type MiddlewareHandler } from "hono";
import { parseDlqId } from "../../domain/dlq.ts";
import type { DeliveryQueueing } from "../../queue/delivery-queueing.ts";
import type { DeliveryStore } from "../../store/delivery-store.ts";
import type { DlqStore } from "../../store/dlq-store.ts";
import { type AdminEnv, canSee } from "../admin-auth.ts";
import { ApiError } from "../api-error.ts";
import { deleteDlqEntry, listDlq } from "../contract/ledger.ts";
import { apiGroup } from "../route-group.ts";
import { decodeCursor, encodeCursor, parseFilter, parseLimit } from "../filters.ts";
import { dlqEntryView } from "../views.ts";

export interface DlqRouteDeps {
  readonly dlq: DlqStore;
  readonly ledger: DeliveryStore;
  readonly queues: Pick<DeliveryQueueing, "forgetDead">;
  readonly auth: MiddlewareHandler<AdminEnv>;
}

export function dlqRoutes(deps: DlqRouteDeps): Hono {
  const app = apiGroup<AdminEnv>();

  app.openapi({ ...listDlq, middleware: [deps.auth] as const }, async (c) => {
    const q = c.req.query();
    const filter = parseFilter(q);
    const limit = parseLimit(q.limit);
    const after = q.cursor === undefined || q.cursor === "" ? undefined : decodeCursor(q.cursor);
    const tenant = c.get("principal").tenant;
    const page = await deps.dlq.list({
      ...filter,
      ...(tenant !== undefined ? { tenant } : {}),
      limit,
      after,
    });
    return c.json(
      { data: page.entries.map(dlqEntryView), next_cursor: page.next ? encodeCursor(page.next) : null },
      200,
    );
  });

  app.openapi({ ...deleteDlqEntry, middleware: [deps.auth] as const }, async (c) => {
    const id = parseDlqId(c.req.param("id"));
    const row = id ? await deps.ledger.get(id) : undefined;
    // Another tenant's entry answers exactly like a missing one, so ids do not leak.
    if (!row || row.state !== "dead" || row.purged || !canSee(c.get("principal"), row.tenant))
      throw new ApiError(404, "not_found", "no such DLQ entry");
    await deps.ledger.unlist(row);
    await deps.queues.forgetDead(row);
    return c.body(null, 204);
  });

  // Mounted on a plain app so it sits beside the public routes in createApp.
  return new Hono().route("/", app);
}

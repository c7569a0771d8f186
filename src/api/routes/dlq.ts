// GET /v1/dlq and DELETE /v1/dlq/:id: browsing and purging dead deliveries. A page walks the
// narrowest DLQ index from an opaque (dead_at, id) cursor, so it costs O(page) however big the DLQ is.
import { Hono, type MiddlewareHandler } from "hono";
import { NAME } from "../../config/schema.ts";
import { ERROR_CLASSES, type ErrorClass } from "../../domain/error-class.ts";
import { isId } from "../../domain/ids.ts";
import { parseDeliveryJobId } from "../../queue/delivery-job.ts";
import type { SinkQueues } from "../../queue/sink-queues.ts";
import type { DlqEntry, DlqFilter, DlqStore, IndexPosition } from "../../store/dlq-store.ts";
import { type AdminEnv, canSee } from "../admin-auth.ts";
import { ApiError } from "../api-error.ts";
import { iso } from "./hooks.ts";

export interface DlqRouteDeps {
  readonly dlq: DlqStore;
  readonly queues: SinkQueues;
  readonly auth: MiddlewareHandler<AdminEnv>;
}

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;

const invalid = (message: string): ApiError => new ApiError(400, "invalid_request", message);

/** An instant given as ISO 8601 or as milliseconds since the epoch; `what` names it in errors. */
export function parseInstant(value: string, what: string): number {
  const ms = /^\d{1,15}$/.test(value)
    ? Number(value)
    : /^\d{4}-\d\d-\d\d/.test(value)
      ? Date.parse(value)
      : NaN;
  if (!Number.isFinite(ms)) throw invalid(`${what} must be an ISO 8601 time or milliseconds since the epoch`);
  return ms;
}

/** Validate the filter fields shared by the DLQ listing and replays (tenant excluded). */
export function parseFilter(input: {
  source?: string | undefined;
  sink?: string | undefined;
  error_class?: string | undefined;
  since?: string | number | undefined;
  until?: string | number | undefined;
}): Omit<DlqFilter, "tenant"> {
  const name = (value: string | undefined, what: string): string | undefined => {
    if (value !== undefined && !NAME.test(value)) throw invalid(`${what} must match [A-Za-z0-9_-]{1,64}`);
    return value;
  };
  const instant = (value: string | number | undefined, what: string): number | undefined =>
    value === undefined ? undefined : parseInstant(String(value), what);
  const errorClass = input.error_class;
  if (errorClass !== undefined && !(ERROR_CLASSES as readonly string[]).includes(errorClass)) {
    throw invalid(`error_class must be one of ${ERROR_CLASSES.join(", ")}`);
  }
  const filter = {
    source: name(input.source, "source"),
    sink: name(input.sink, "sink"),
    error_class: errorClass as ErrorClass | undefined,
    since: instant(input.since, "since"),
    until: instant(input.until, "until"),
  };
  return Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined));
}

export function encodeCursor(p: IndexPosition): string {
  return Buffer.from(JSON.stringify([p.score, p.id])).toString("base64url");
}

export function decodeCursor(value: string): IndexPosition {
  try {
    const [score, id] = JSON.parse(Buffer.from(value, "base64url").toString("utf8")) as [unknown, unknown];
    if (typeof score === "number" && Number.isFinite(score) && typeof id === "string" && id.length <= 200)
      return { score, id };
  } catch {
    // fall through
  }
  throw invalid("cursor is not one this API returned");
}

/** A DLQ entry as the API shows it: ISO timestamps, never a body. */
export function dlqEntryView(e: DlqEntry): Record<string, unknown> {
  return {
    id: e.id,
    hook_id: e.hook_id,
    source: e.source,
    tenant: e.tenant,
    sink: e.sink,
    error_class: e.error_class,
    reason: e.reason,
    attempts: e.attempts,
    first_attempt_at: iso(e.first_attempt_at),
    last_attempt_at: iso(e.last_attempt_at),
    dead_at: iso(e.dead_at),
    replay_id: e.replay_id,
  };
}

function parseLimit(value: string | undefined): number {
  if (value === undefined) return DEFAULT_LIMIT;
  const n = /^\d{1,7}$/.test(value) ? Number(value) : NaN;
  if (!(n >= 1 && n <= MAX_LIMIT)) throw invalid(`limit must be an integer from 1 to ${MAX_LIMIT}`);
  return n;
}

/** A DLQ id (`<hook id>-<sink>`) well-formed enough to look up; junk answers 404 like a missing one. */
function isDlqId(id: string): boolean {
  const parsed = parseDeliveryJobId(id);
  return parsed !== undefined && isId("hk", parsed.hookId) && NAME.test(parsed.sink);
}

export function dlqRoutes(deps: DlqRouteDeps): Hono {
  const app = new Hono<AdminEnv>();

  app.get("/v1/dlq", deps.auth, async (c) => {
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
    return c.json({
      data: page.entries.map(dlqEntryView),
      next_cursor: page.next ? encodeCursor(page.next) : null,
    });
  });

  app.delete("/v1/dlq/:id", deps.auth, async (c) => {
    const id = c.req.param("id");
    const entry = isDlqId(id) ? await deps.dlq.get(id) : undefined;
    if (!entry || !canSee(c.get("principal"), entry.tenant))
      throw new ApiError(404, "not_found", "no such DLQ entry");
    if (deps.queues.all().has(entry.sink)) {
      const job = await deps.queues.get(entry.sink).getJob(id);
      // Only the dead job goes: one that a replay has already sent back is live again.
      if (job && (await job.getState()) === "failed") await job.remove();
    }
    await deps.dlq.remove(id);
    return c.body(null, 204);
  });

  // Mounted on a plain app so it sits beside the public routes in createApp.
  return new Hono().route("/", app);
}

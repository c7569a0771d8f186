// POST/GET/PATCH /v1/replays: create a replay of dead deliveries, list them, and watch or steer one. The work is
// done by the replay runners (recovery role); this route only writes the durable record and its job.
import { Hono, type MiddlewareHandler } from "hono";
import { z } from "zod";
import { type ReplayId, isId } from "../../domain/ids.ts";
import {
  DEFAULT_RATE_PER_S,
  MAX_RATE_PER_S,
  MAX_REPLAY_IDS,
  REPLAY_STATES,
  type ReplayFilter,
} from "../../domain/replay.ts";
import {
  type CreateReplayDeps,
  TooManyReplays,
  UnknownReplayTarget,
  createReplay,
} from "../../recovery/create-replay.ts";
import type { ReplayRecord } from "../../store/replay-store.ts";
import { type AdminEnv, canSee } from "../admin-auth.ts";
import { ApiError } from "../api-error.ts";
import { parseFilter, parseLimit } from "../filters.ts";
import { REPLAY_BODY_MAX_BYTES, readJsonCapped } from "../read-body.ts";
import { iso } from "../views.ts";

export interface ReplayRouteDeps extends CreateReplayDeps {
  readonly auth: MiddlewareHandler<AdminEnv>;
}

const instant = z.union([z.string(), z.number()]);
const createBody = z
  .object({
    filter: z
      .object({
        source: z.string().optional(),
        sink: z.string().optional(),
        endpoint: z.string().optional(),
        error_class: z.string().optional(),
        since: instant.optional(),
        until: instant.optional(),
        ids: z.array(z.string().max(200)).min(1).max(MAX_REPLAY_IDS).optional(),
      })
      .strict()
      .default({}),
    rate_per_s: z.number().int().positive().max(MAX_RATE_PER_S).default(DEFAULT_RATE_PER_S),
  })
  .strict();

const patchBody = z.object({ state: z.enum(["running", "paused", "cancelled"]) }).strict();

const invalid = (message: string): ApiError => new ApiError(400, "invalid_request", message);
const notFound = (): ApiError => new ApiError(404, "not_found", "no such replay");

async function readJson<T>(req: Request, schema: z.ZodType<T>): Promise<T> {
  const body = await readJsonCapped(req, REPLAY_BODY_MAX_BYTES);
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalid(`${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}`);
  }
  return parsed.data;
}

/** The replay as the API shows it: ISO timestamps, internal cursor fields left out. */
export function replayView(r: ReplayRecord): Record<string, unknown> {
  const { since, until, ...rest } = r.filter;
  return {
    id: r.id,
    state: r.state,
    tenant: r.tenant,
    filter: { ...rest, since: iso(since), until: iso(until) },
    rate_per_s: r.rate_per_s,
    matched: r.matched,
    moved: r.moved,
    failed: r.failed,
    total_estimate: r.total_estimate,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
    finished_at: iso(r.finished_at),
  };
}

export function replayRoutes(deps: ReplayRouteDeps): Hono {
  const app = new Hono<AdminEnv>();

  app.post("/v1/replays", deps.auth, async (c) => {
    const body = await readJson(c.req.raw, createBody);
    const tenant = c.get("principal").tenant;
    const { ids, ...fields } = body.filter;
    const filter: ReplayFilter = { ...parseFilter(fields), ...(ids ? { ids } : {}) };
    let record: ReplayRecord;
    try {
      record = await createReplay(deps, { tenant, filter, ratePerS: body.rate_per_s });
    } catch (err) {
      if (err instanceof UnknownReplayTarget) throw invalid(`filter.ids: ${err.message}`);
      if (err instanceof TooManyReplays) throw new ApiError(429, "too_many_replays", err.message);
      throw err;
    }
    return c.json({ id: record.id, ...replayView(record) }, 202);
  });

  app.get("/v1/replays", deps.auth, async (c) => {
    const q = c.req.query();
    const tenant = c.get("principal").tenant;
    const state = q.state === undefined || q.state === "" ? undefined : q.state;
    if (state !== undefined && !(REPLAY_STATES as readonly string[]).includes(state))
      throw invalid(`state must be one of ${REPLAY_STATES.join(", ")}`);
    const cursor = q.cursor === undefined || q.cursor === "" ? undefined : q.cursor;
    if (cursor !== undefined && !isId("rp", cursor)) throw invalid("cursor is not one this API returned");
    const page = await deps.replays.list({
      limit: parseLimit(q.limit),
      ...(cursor !== undefined ? { cursor } : {}),
      filter: (r) => canSee({ tenant }, r.tenant) && (state === undefined || r.state === state),
    });
    return c.json({ data: page.replays.map(replayView), next_cursor: page.next ?? null });
  });

  const visible = async (id: string, tenant: string | undefined): Promise<ReplayRecord> => {
    const record = isId("rp", id) ? await deps.replays.get(id) : undefined;
    if (!record || !canSee({ tenant }, record.tenant)) throw notFound();
    return record;
  };

  app.get("/v1/replays/:id", deps.auth, async (c) => {
    return c.json(replayView(await visible(c.req.param("id"), c.get("principal").tenant)));
  });

  app.patch("/v1/replays/:id", deps.auth, async (c) => {
    const record = await visible(c.req.param("id"), c.get("principal").tenant);
    const { state } = await readJson(c.req.raw, patchBody);
    const result = await deps.replays.setState(record.id, state);
    switch (result) {
      case "ok":
        break;
      case "missing":
        throw notFound();
      case "done":
      case "cancelled":
        throw new ApiError(409, "conflict", `the replay is already ${result}`);
    }
    return c.json(replayView((await deps.replays.get(record.id as ReplayId)) ?? record));
  });

  // Mounted on a plain app so it sits beside the public routes in createApp.
  return new Hono().route("/", app);
}

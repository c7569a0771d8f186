// POST/GET/PATCH /v1/replays: create a replay of dead deliveries, list them, and watch or steer one. The work is
// done by the replay runners (recovery role); this route only writes the durable record and its job.
import { Hono, type MiddlewareHandler } from "hono";
import type { z } from "zod";
import { type ReplayId, isId } from "../../domain/ids.ts";
import { REPLAY_STATES, type ReplayFilter } from "../../domain/replay.ts";
import {
  type CreateReplayDeps,
  TooManyReplays,
  UnknownReplayTarget,
  createReplay,
} from "../../recovery/create-replay.ts";
import type { ReplayRecord } from "../../store/replay-store.ts";
import { type AdminEnv, canSee } from "../admin-auth.ts";
import { ApiError } from "../api-error.ts";
import {
  type Replay,
  createReplay as createReplayRoute,
  getReplay,
  listReplays,
  patchReplay,
} from "../contract/replays.ts";
import { parseFilter, parseLimit } from "../filters.ts";
import { REPLAY_BODY_MAX_BYTES } from "../read-body.ts";
import { apiGroup, cappedJson } from "../route-group.ts";
import { iso, isoAt } from "../views.ts";

export interface ReplayRouteDeps extends CreateReplayDeps {
  readonly auth: MiddlewareHandler<AdminEnv>;
}

const invalid = (message: string): ApiError => new ApiError(400, "invalid_request", message);
const notFound = (): ApiError => new ApiError(404, "not_found", "no such replay");

/** The replay as the API shows it: ISO timestamps, internal cursor fields left out. */
export function replayView(r: ReplayRecord): z.infer<typeof Replay> {
  const { since, until, ids, ...rest } = r.filter;
  return {
    id: r.id,
    state: r.state,
    tenant: r.tenant,
    filter: { ...rest, ...(ids ? { ids: [...ids] } : {}), since: iso(since), until: iso(until) },
    rate_per_s: r.rate_per_s,
    matched: r.matched,
    moved: r.moved,
    failed: r.failed,
    total_estimate: r.total_estimate,
    created_at: isoAt(r.created_at),
    updated_at: isoAt(r.updated_at),
    finished_at: iso(r.finished_at),
  };
}

export function replayRoutes(deps: ReplayRouteDeps): Hono {
  const app = apiGroup<AdminEnv>();
  const body = cappedJson<AdminEnv>(REPLAY_BODY_MAX_BYTES);

  app.openapi({ ...createReplayRoute, middleware: [deps.auth, body] as const }, async (c) => {
    const input = c.req.valid("json");
    const tenant = c.get("principal").tenant;
    const { ids, ...fields } = input.filter;
    const filter: ReplayFilter = { ...parseFilter(fields), ...(ids ? { ids } : {}) };
    let record: ReplayRecord;
    try {
      record = await createReplay(deps, { tenant, filter, ratePerS: input.rate_per_s });
    } catch (err) {
      if (err instanceof UnknownReplayTarget) throw invalid(`filter.ids: ${err.message}`);
      if (err instanceof TooManyReplays) throw new ApiError(429, "too_many_replays", err.message);
      throw err;
    }
    return c.json(replayView(record), 202);
  });

  app.openapi({ ...listReplays, middleware: [deps.auth] as const }, async (c) => {
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
    return c.json({ data: page.replays.map(replayView), next_cursor: page.next ?? null }, 200);
  });

  const visible = async (id: string, tenant: string | undefined): Promise<ReplayRecord> => {
    const record = isId("rp", id) ? await deps.replays.get(id) : undefined;
    if (!record || !canSee({ tenant }, record.tenant)) throw notFound();
    return record;
  };

  app.openapi({ ...getReplay, middleware: [deps.auth] as const }, async (c) => {
    return c.json(replayView(await visible(c.req.param("id"), c.get("principal").tenant)), 200);
  });

  app.openapi({ ...patchReplay, middleware: [deps.auth, body] as const }, async (c) => {
    const record = await visible(c.req.param("id"), c.get("principal").tenant);
    const { state } = c.req.valid("json");
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
    return c.json(replayView((await deps.replays.get(record.id as ReplayId)) ?? record), 200);
  });

  // Mounted on a plain app so it sits beside the public routes in createApp.
  return new Hono().route("/", app);
}

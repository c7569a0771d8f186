// The contract of /v1/replays: start a rate-limited replay of dead deliveries, list them, watch one's
// progress and steer it. The request schemas here are the ones the routes validate with.
import { z } from "@hono/zod-openapi";
import { ERROR_CLASSES } from "../../domain/error-class.ts";
import {
  DEFAULT_RATE_PER_S,
  MAX_RATE_PER_S,
  MAX_REPLAY_IDS,
  REPLAY_STATES,
  type ReplayState,
} from "../../domain/replay.ts";
import { adminRoute, idParams, instant, json, jsonBody, queryParam } from "./define-route.ts";
import { cursorParam, errorClass, limitParam, nextCursor } from "./ledger.ts";

const replayState = z.enum(REPLAY_STATES as readonly [ReplayState, ...ReplayState[]]);
const instantInput = z
  .union([z.string(), z.number()])
  .openapi({ description: "ISO 8601, or milliseconds since the epoch." });

export const ReplayInput = z
  .strictObject({
    filter: z
      .strictObject({
        source: z.string().optional(),
        sink: z.string().optional(),
        endpoint: z.string().optional().openapi({ description: "An endpoint id (ep_…): its deliveries." }),
        error_class: z
          .string()
          .optional()
          .openapi({ enum: [...ERROR_CLASSES] }),
        since: instantInput.optional(),
        until: instantInput.optional(),
        ids: z
          .array(z.string().max(200))
          .min(1)
          .max(MAX_REPLAY_IDS)
          .optional()
          .openapi({ description: "DLQ entry ids or hook ids (every dead delivery of that hook)." }),
      })
      .default({}),
    rate_per_s: z.number().int().positive().max(MAX_RATE_PER_S).default(DEFAULT_RATE_PER_S),
  })
  .openapi("ReplayInput");

export const ReplayPatch = z
  .strictObject({ state: z.enum(["running", "paused", "cancelled"]) })
  .openapi("ReplayPatch");

export const Replay = z
  .object({
    id: z.string(),
    state: replayState,
    tenant: z.string().optional(),
    filter: z.object({
      source: z.string().optional(),
      sink: z.string().optional(),
      endpoint: z.string().optional(),
      error_class: errorClass.optional(),
      since: instant.optional(),
      until: instant.optional(),
      ids: z.array(z.string()).optional(),
    }),
    rate_per_s: z.number().int(),
    matched: z.number().int().openapi({ description: "Entries found so far." }),
    moved: z.number().int().openapi({ description: "Entries sent back to their queues." }),
    failed: z.number().int().openapi({ description: "Entries that could not be moved." }),
    total_estimate: z.number().int().openapi({ description: "Upper bound on matched, for progress." }),
    created_at: instant,
    updated_at: instant,
    finished_at: instant.optional(),
  })
  .openapi("Replay");

const replayId = idParams("Replay id (rp_…).");

export const createReplay = adminRoute({
  method: "post",
  path: "/v1/replays",
  summary: "Start a rate-limited replay of matching DLQ entries",
  request: { body: jsonBody(ReplayInput) },
  responses: { 202: json(Replay, "Replay started.") },
  errors: [429],
  errorMeaning: { 429: "too_many_replays: the tenant has replays.max_per_tenant replays running or paused." },
});

export const listReplays = adminRoute({
  method: "get",
  path: "/v1/replays",
  summary: "Replays, newest first (a tenant-bound token sees its own)",
  request: {
    query: z.object({
      state: queryParam("Only replays in this state.", { enum: [...REPLAY_STATES] }),
      limit: limitParam,
      cursor: cursorParam,
    }),
  },
  responses: {
    200: json(
      z.object({ data: z.array(Replay), next_cursor: nextCursor }),
      "A page of replays. With a state filter a page may hold fewer than `limit`: follow next_cursor.",
    ),
  },
  errors: [400],
});

export const getReplay = adminRoute({
  method: "get",
  path: "/v1/replays/{id}",
  summary: "Replay progress",
  request: { params: replayId },
  responses: { 200: json(Replay, "Progress.") },
  errors: [404],
});

export const patchReplay = adminRoute({
  method: "patch",
  path: "/v1/replays/{id}",
  summary: "Pause, resume or cancel a replay",
  request: { params: replayId, body: jsonBody(ReplayPatch) },
  responses: { 200: json(Replay, "Updated.") },
  errors: [404, 409],
  errorMeaning: { 409: "conflict: the replay has already ended (done or cancelled)." },
});

export const REPLAY_ROUTES = [createReplay, listReplays, getReplay, patchReplay];

// The /v1/replays part of the OpenAPI document: start a replay, list them, watch and steer one.
import type { OpenApiHelpers } from "./openapi-endpoints.ts";
import { ref } from "./openapi-schemas.ts";
import { REPLAY_STATES } from "../domain/replay.ts";

type Schema = Record<string, unknown>;

const dlqFilter = {
  type: "object",
  properties: {
    source: { type: "string" },
    sink: { type: "string" },
    endpoint: { type: "string", description: "An endpoint id (ep_…): its outbound deliveries." },
    error_class: { enum: ["permanent", "throttled", "transient"] },
    since: { type: "string", format: "date-time" },
    until: { type: "string", format: "date-time" },
    ids: { type: "array", items: { type: "string" } },
  },
};

export function replayPaths(h: OpenApiHelpers): Record<string, Schema> {
  const { json, error, admin, pathParam, query, adminErrors } = h;
  const replayId = pathParam("id", "Replay id (rp_…).");
  return {
    "/v1/replays": {
      post: {
        tags: ["admin"],
        summary: "Start a rate-limited replay of matching DLQ entries",
        security: admin,
        requestBody: {
          required: true,
          ...json({
            type: "object",
            properties: { filter: dlqFilter, rate_per_s: { type: "integer", minimum: 1 } },
          }),
        },
        responses: {
          "202": {
            description: "Replay started.",
            ...json({ type: "object", properties: { id: { type: "string" } } }),
          },
          "400": error("invalid_request."),
          "401": error("No valid admin token."),
          "429": error(
            "too_many_replays: the tenant already has replays.max_per_tenant replays running or paused.",
          ),
        },
      },
      get: {
        tags: ["admin"],
        summary: "Replays, newest first (a tenant-bound token sees its own)",
        security: admin,
        parameters: [
          query("state", "Only replays in this state.", { enum: REPLAY_STATES }),
          query("limit", "Page size, at most 1000.", { type: "integer", minimum: 1, maximum: 1000 }),
          query("cursor", "next_cursor of the previous page."),
        ],
        responses: {
          "200": {
            description:
              "A page of replays. With a state filter a page may hold fewer than `limit`: follow next_cursor.",
            ...json({
              type: "object",
              properties: {
                data: { type: "array", items: ref("Replay") },
                next_cursor: { type: ["string", "null"] },
              },
            }),
          },
          "400": error("invalid_request."),
          "401": error("No valid admin token."),
        },
      },
    },
    "/v1/replays/{id}": {
      get: {
        tags: ["admin"],
        summary: "Replay progress",
        security: admin,
        parameters: [replayId],
        responses: { "200": { description: "Progress.", ...json(ref("Replay")) }, ...adminErrors },
      },
      patch: {
        tags: ["admin"],
        summary: "Pause, resume or cancel a replay",
        security: admin,
        parameters: [replayId],
        requestBody: {
          required: true,
          ...json({
            type: "object",
            required: ["state"],
            properties: { state: { enum: ["paused", "running", "cancelled"] } },
          }),
        },
        responses: {
          "200": { description: "Updated.", ...json(ref("Replay")) },
          "400": error("invalid_request."),
          ...adminErrors,
          "409": error("conflict: the replay has already ended (done or cancelled)."),
        },
      },
    },
  };
}

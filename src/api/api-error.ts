// One error type with one HTTP projection. Routes throw; `onError` in app.ts is the only place that
// builds an error response. Anything else becomes an opaque 500 and a log line.
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { IngestErrorCode } from "../ingest/ingest-error.ts";

/** Every `error.code` the API answers with: the documented, stable reasons. */
export const API_ERROR_CODES = [
  "unknown_source",
  "verification_failed",
  "payload_too_large",
  "store_unavailable",
  "overloaded",
  "shutting_down",
  "unauthorized",
  "forbidden",
  "not_found",
  "invalid_request",
  "unsupported_media_type",
  "conflict",
  "too_many_replays",
  "too_many_endpoints",
  "not_ready",
  "internal",
] as const;

export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ApiErrorCode,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** The documented status of each ingest refusal. */
export const INGEST_STATUS: Record<IngestErrorCode, ContentfulStatusCode> = {
  unknown_source: 404,
  verification_failed: 401,
  payload_too_large: 413,
  store_unavailable: 503,
  overloaded: 429,
  shutting_down: 503,
};

// Parsing what admin requests narrow by: instants, DLQ filters, page limits and opaque cursors. Shared
// by the DLQ listing and replays, so both accept exactly the same filter.
import { NAME } from "../config/schema.ts";
import type { DlqFilter, IndexPosition } from "../domain/dlq.ts";
import { ERROR_CLASSES, type ErrorClass } from "../domain/error-class.ts";
import { ApiError } from "./api-error.ts";

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
  endpoint?: string | undefined;
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
  if (input.endpoint !== undefined && !/^ep_[0-9a-z]{26}$/.test(input.endpoint))
    throw invalid("endpoint must be an endpoint id (ep_…)");
  const filter = {
    source: name(input.source, "source"),
    sink: name(input.sink, "sink"),
    endpoint: input.endpoint,
    error_class: errorClass as ErrorClass | undefined,
    since: instant(input.since, "since"),
    until: instant(input.until, "until"),
  };
  return Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined));
}

export function parseLimit(value: string | undefined): number {
  if (value === undefined) return DEFAULT_LIMIT;
  const n = /^\d{1,7}$/.test(value) ? Number(value) : NaN;
  if (!(n >= 1 && n <= MAX_LIMIT)) throw invalid(`limit must be an integer from 1 to ${MAX_LIMIT}`);
  return n;
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

// What a failed call throws: the API's refusal with its stable `error.code`, or the gateway not being
// reachable at all. Callers branch on `code`, never on the message.
import type { components } from "./schema.ts";

/** Every `error.code` the API answers with. */
export type ApiErrorCode = components["schemas"]["Error"]["error"]["code"];

/** The API refused the request: `{"error":{"code","message"}}` with an HTTP status. */
export class SwitchyardApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    /** Seconds the gateway asked the caller to wait (Retry-After), when it did. */
    readonly retryAfterS: number | undefined,
  ) {
    super(message);
    this.name = "SwitchyardApiError";
  }

  /** The error of a non-2xx answer whose body was `body` (already parsed by the caller, or not JSON). */
  static from(response: Response, body: unknown): SwitchyardApiError {
    const error = (body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
    const code = typeof error?.code === "string" ? (error.code as ApiErrorCode) : "internal";
    const message =
      typeof error?.message === "string" ? error.message : `HTTP ${response.status} ${response.statusText}`;
    return new SwitchyardApiError(response.status, code, message, retryAfterSeconds(response.headers));
  }
}

/** The gateway could not be reached (refused, reset, timed out): no answer at all. */
export class SwitchyardConnectionError extends Error {
  constructor(
    readonly url: string,
    override readonly cause: unknown,
  ) {
    super(`cannot reach the Switchyard API at ${url} (${reason(cause)})`);
    this.name = "SwitchyardConnectionError";
  }

  /** The system's reason (ECONNREFUSED, …) or the error's message. */
  get reason(): string {
    return reason(this.cause);
  }
}

function reason(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  if (typeof cause?.code === "string") return cause.code;
  if (typeof cause?.message === "string") return cause.message;
  if ((err as { name?: unknown } | undefined)?.name === "TimeoutError") return "timed out";
  return err instanceof Error ? err.message : String(err);
}

/** Retry-After as seconds (delta-seconds or an HTTP date), or undefined. */
export function retryAfterSeconds(headers: Headers, now = Date.now()): number | undefined {
  const value = headers.get("retry-after");
  if (value === null || value.trim() === "") return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, Math.ceil((at - now) / 1000)) : undefined;
}

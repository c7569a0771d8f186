// How an HTTP answer or a network error becomes a DeliveryResult. Kept apart from the socket code so every
// status-code rule is unit-tested, and so the outbound fanout can map endpoint answers the same way.
import {
  withStatusCode,
  boundReason,
  ok,
  permanent,
  retryAfter,
  transient,
  type DeliveryResult,
} from "../domain/error-class.ts";

/** What the classifier needs from a response: no request data, so a reason can never leak a secret. */
export interface HttpAnswer {
  readonly status: number;
  /** Response headers, lower-cased names (undici's shape). */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The start of the response body as text (at most about 1 KiB). */
  readonly bodyStart: string;
}

/** The destination refuses our credentials: the sink's config is wrong, not the hook. */
const CONFIG = new Set([401, 403]);
/** Worth trying again later. */
const TRANSIENT_4XX = new Set([408, 429]);

function header(headers: HttpAnswer["headers"], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Milliseconds a `Retry-After` value asks us to wait: delta-seconds or an HTTP-date (RFC 9110 §10.2.3).
 * `undefined` when absent, unparseable, zero or in the past — no usable hint.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === "") return undefined;
  let ms: number;
  if (/^\d+$/.test(trimmed)) {
    ms = Number(trimmed) * 1000;
  } else {
    const at = Date.parse(trimmed);
    if (Number.isNaN(at)) return undefined;
    ms = at - nowMs;
  }
  return Number.isFinite(ms) && ms > 0 ? Math.ceil(ms) : undefined;
}

function describeAnswer(status: number, bodyStart: string): string {
  // Control characters from a hostile body would garble a log line or a terminal.
  // eslint-disable-next-line no-control-regex
  const text = bodyStart.replace(/[\u0000-\u001f\u007f]+/g, " ").trim();
  return boundReason(text === "" ? `HTTP ${status}` : `HTTP ${status}: ${text}`);
}

function redirectTarget(location: string | undefined): string {
  if (location === undefined) return "(no location)";
  try {
    // Userinfo in a Location header would be a credential; the query may hold a token.
    const url = new URL(location, "http://relative.invalid");
    return url.host === "relative.invalid" ? url.pathname : `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return "(invalid location)";
  }
}

/**
 * Classify one HTTP answer. 2xx is ok; 400/404/410/413/422 and other 4xx are permanent (401/403 as config
 * errors); 408/429/5xx are transient, as `retry_after` when a Retry-After header gives a delay (a 429 is
 * always a throttle, with or without one). A 3xx is permanent: redirects are never followed, and retrying
 * would meet the same redirect.
 */
export function classifyAnswer(answer: HttpAnswer, nowMs: number = Date.now()): DeliveryResult {
  const { status } = answer;
  if (status >= 200 && status < 300) return ok;
  return withStatusCode(classifyFailure(answer, nowMs), status);
}

function classifyFailure(answer: HttpAnswer, nowMs: number): DeliveryResult {
  const { status } = answer;
  const reason = describeAnswer(status, answer.bodyStart);
  if (status >= 300 && status < 400) {
    return permanent(
      boundReason(
        `HTTP ${status}: redirect to ${redirectTarget(header(answer.headers, "location"))} not followed`,
      ),
    );
  }
  if (CONFIG.has(status)) return permanent(reason, { config: true });
  if (TRANSIENT_4XX.has(status) || (status >= 500 && status < 600)) {
    const wait = parseRetryAfter(header(answer.headers, "retry-after"), nowMs);
    if (wait !== undefined || status === 429) return retryAfter(wait, reason);
    return transient(reason);
  }
  // 400/404/410/413/422 and the rest of 4xx: the destination will refuse this hook again, whatever we do.
  if (status >= 400 && status < 500) return permanent(reason);
  // A final 1xx or a status beyond 599 is a broken server; it may recover.
  return transient(boundReason(`unexpected HTTP status ${status}`));
}

function errorCode(err: unknown): string | undefined {
  if (typeof err !== "object" || err === null || !("code" in err)) return undefined;
  return typeof err.code === "string" ? err.code : undefined;
}

/**
 * Classify an error thrown before a status arrived. Network failures, timeouts and aborts are transient;
 * only undici refusing the request itself (an invalid configured header) is a config error.
 */
export function classifyError(err: unknown): DeliveryResult {
  const code = errorCode(err);
  const message = err instanceof Error ? err.message : String(err);
  if (code === "UND_ERR_INVALID_ARG")
    return permanent(boundReason(`invalid request: ${message}`), { config: true });
  const cause = err instanceof Error ? errorCode(err.cause) : undefined;
  const label = [code, cause].filter((c) => c !== undefined).join("/");
  return transient(boundReason(label === "" ? message : `${label}: ${message}`));
}

// The one HTTP send: the http sink and the outbound endpoints both post through it, so they share one
// timeout model, one reading of the answer and one set of request rules, and cannot drift apart again.
//
// Timeouts: `timeoutMs` bounds connecting (set on the dispatcher, see httpDispatcherTimeouts), waiting for
// the response headers, and each pause in the body; the attempt as a whole is bounded by the caller's
// signal (the attempt timeout). Redirects are never followed. Of an error body at most 1 KiB is kept.
import type { Dispatcher } from "undici";
import { type DeliveryResult, transient } from "../domain/error-class.ts";
import type { AttemptAbort } from "./attempt-abort.ts";
import { classifyError } from "./http-classify.ts";
import { resultOfAnswer } from "./http-read-start.ts";

/** undici's codes for a timer of ours running out (connect, headers, body). */
const TIMEOUT_CODES = new Set(["UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

export interface HttpSend {
  /** The pool or agent to send through; its connect timeout should come from httpDispatcherTimeouts. */
  readonly dispatcher: Dispatcher;
  /** Where to: httpTarget(url), made once per destination. */
  readonly target: HttpTarget;
  readonly method: Dispatcher.HttpMethod;
  /** Lower-cased names. Basic auth from the URL's userinfo is added unless `authorization` is set. */
  readonly headers: Record<string, string>;
  readonly body: Buffer;
  /** Aborts the request: the attempt timed out, or was cancelled. */
  readonly signal: AbortSignal;
  /** The same abort as an emitter (attempt-abort.ts): what undici listens on when it is given. */
  readonly abort?: AttemptAbort | undefined;
  readonly timeoutMs: number;
  /** The attempt span's, for the destination (tracing on). */
  readonly traceparent?: string | undefined;
}

/** The dispatcher options that make `timeoutMs` bound connecting too (undici sets it per dispatcher). */
export function httpDispatcherTimeouts(timeoutMs: number): { connect: { timeout: number } } {
  return { connect: { timeout: timeoutMs } };
}

/** A destination URL taken apart once: undici's origin and path, and the Basic auth of its userinfo. */
export interface HttpTarget {
  readonly origin: string;
  readonly path: string;
  /** `Basic …` from the URL's userinfo (which undici drops with the origin), if it has one. */
  readonly authorization: string | undefined;
}

export function httpTarget(url: URL): HttpTarget {
  const hasUserinfo = url.username !== "" || url.password !== "";
  const userinfo = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  return {
    origin: url.origin,
    path: `${url.pathname}${url.search}`,
    authorization: hasUserinfo ? `Basic ${Buffer.from(userinfo, "utf8").toString("base64")}` : undefined,
  };
}

function errorCodeOf(err: unknown): string | undefined {
  return typeof err === "object" && err !== null && "code" in err && typeof err.code === "string"
    ? err.code
    : undefined;
}

/**
 * Send one request and classify its outcome (classify.ts): never rejects. An error thrown before an
 * answer goes to `refusal` first, so a caller can name its own refusals (the SSRF guard's).
 */
export async function sendHttp(
  send: HttpSend,
  refusal?: (err: unknown) => DeliveryResult | undefined,
): Promise<DeliveryResult> {
  const { signal, target, timeoutMs } = send;
  if (signal.aborted) return transient("attempt aborted before sending");
  const basic = send.headers.authorization === undefined ? target.authorization : undefined;
  const headers =
    basic === undefined && send.traceparent === undefined
      ? send.headers
      : {
          ...send.headers,
          ...(basic === undefined ? {} : { authorization: basic }),
          ...(send.traceparent === undefined ? {} : { traceparent: send.traceparent }),
        };
  try {
    // No controller of our own on the hot path, and no listener on the attempt's AbortSignal when its
    // emitter is here (attempt-abort.ts): undici listens on the emitter.
    const response = await send.dispatcher.request({
      origin: target.origin,
      path: target.path,
      method: send.method,
      headers,
      body: send.body,
      signal: send.abort ?? signal,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    return withSignature(await resultOfAnswer(response), send.headers);
  } catch (err) {
    const refused = refusal?.(err);
    if (refused) return refused;
    if (signal.aborted) return withSignature(transient("attempt aborted"), send.headers);
    if (TIMEOUT_CODES.has(errorCodeOf(err) ?? ""))
      return withSignature(transient(`timeout: no answer within ${timeoutMs} ms`), send.headers);
    return withSignature(classifyError(err), send.headers);
  }
}

/** `result` with the Standard Webhooks signature headers the request carried (if signed), for its history. */
function withSignature(result: DeliveryResult, headers: Record<string, string>): DeliveryResult {
  const signature = headers["webhook-signature"];
  if (signature === undefined) return result;
  const signatureHeaders = {
    "webhook-id": headers["webhook-id"] ?? "",
    "webhook-timestamp": headers["webhook-timestamp"] ?? "",
    "webhook-signature": signature,
  };
  return { ...result, trace: { ...result.trace, signatureHeaders } };
}

// The http sink: forwards a hook's exact bytes to one URL over a keep-alive undici Pool, signed with Standard
// Webhooks headers when a secret is configured, and turns the answer into a DeliveryResult.
import { Pool } from "undici";
import type { HttpSinkConfig } from "../../config/schema.ts";
import { transient, type DeliveryResult } from "../../domain/error-class.ts";
import type { Delivery } from "../../domain/hook.ts";
import { decodeSecret, signStandardWebhook } from "../../domain/signing.ts";
import { queueMessageHeaders } from "../queue-message.ts";
import type { SinkFactory } from "../sink.ts";
import { classifyError } from "./classify.ts";
import { resultOfAnswer } from "./read-start.ts";

const TIMEOUT_CODES = new Set(["UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

function errorCodeOf(err: unknown): string | undefined {
  return typeof err === "object" && err !== null && "code" in err && typeof err.code === "string"
    ? err.code
    : undefined;
}

/** Configured headers, lower-cased, plus Basic auth from URL userinfo (which the pool's origin drops). */
function configuredHeaders(config: HttpSinkConfig, url: URL): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(config.headers)) headers[key.toLowerCase()] = value;
  if ((url.username !== "" || url.password !== "") && headers.authorization === undefined) {
    const userinfo = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    headers.authorization = `Basic ${Buffer.from(userinfo, "utf8").toString("base64")}`;
  }
  return headers;
}

/**
 * Build an http sink. `ok` means a 2xx. Redirects are never followed: a 3xx is a permanent failure, since
 * the same request would meet the same redirect. `timeout_ms` bounds connecting, waiting for the headers,
 * and each pause in the body; the attempt as a whole is bounded by dispatch's `attempt_timeout_ms`.
 * Throws at construction on an unusable secret.
 */
export const createHttpSink: SinkFactory<HttpSinkConfig> = (name, config) => {
  const url = new URL(config.url);
  const path = `${url.pathname}${url.search}`;
  const baseHeaders = configuredHeaders(config, url);
  const secrets = config.secret === undefined ? undefined : [config.secret];
  if (config.secret !== undefined) {
    try {
      decodeSecret(config.secret);
    } catch (err) {
      throw new Error(`sink "${name}": ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
  }
  const pool = new Pool(url.origin, {
    connections: config.concurrency ?? null,
    connect: { timeout: config.timeout_ms },
    headersTimeout: config.timeout_ms,
    bodyTimeout: config.timeout_ms,
  });

  function requestHeaders(delivery: Delivery): Record<string, string> {
    const { hook } = delivery;
    const headers: Record<string, string> = {
      ...baseHeaders,
      "content-type": hook.contentType ?? "application/octet-stream",
      ...queueMessageHeaders(delivery),
    };
    if (secrets === undefined) return headers;
    // webhook-id is the hook id, so a receiver dedups retries; the timestamp is per attempt.
    const signed = signStandardWebhook({
      id: hook.id,
      timestampS: Math.floor(Date.now() / 1000),
      body: hook.body,
      secrets,
    });
    return { ...headers, ...signed };
  }

  async function deliver(delivery: Delivery, signal: AbortSignal): Promise<DeliveryResult> {
    if (signal.aborted) return transient("attempt aborted before sending");
    try {
      // The caller's signal goes straight to undici (no controller of our own on the hot path); undici's
      // connect, headers and body timers enforce timeout_ms.
      const response = await pool.request({
        path,
        method: config.method,
        headers: requestHeaders(delivery),
        body: delivery.hook.body,
        signal,
      });
      return await resultOfAnswer(response);
    } catch (err) {
      if (signal.aborted) return transient("attempt aborted");
      if (TIMEOUT_CODES.has(errorCodeOf(err) ?? ""))
        return transient(`timeout: no answer within ${config.timeout_ms} ms`);
      return classifyError(err);
    }
  }

  return {
    name,
    type: "http",
    durable: true,
    inlineMaxBytes: undefined,
    deliver,
    describe: () => ({ payload: "body", protocol: "http", host: url.origin, address: url.pathname }),
    close: () => pool.close(),
  };
};

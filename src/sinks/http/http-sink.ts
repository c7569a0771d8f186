// The http sink: forwards a hook's exact bytes to one URL over a keep-alive undici Pool, signed with Standard
// Webhooks headers when a secret is configured, and turns the answer into a DeliveryResult.
import { Pool } from "undici";
import type { HttpSinkConfig } from "./config.ts";
import type { DeliveryResult } from "../../domain/error-class.ts";
import type { Delivery } from "../../domain/hook.ts";
import { decodeSecret, signStandardWebhook } from "../../domain/signing.ts";
import type { AttemptAbort } from "../attempt-abort.ts";
import { queueMessageHeaders } from "../queue-message.ts";
import type { SinkFactory } from "../sink.ts";
import { httpDispatcherTimeouts, httpTarget, sendHttp } from "../http-send.ts";

/** Configured headers, lower-cased (http-send adds Basic auth from the URL's userinfo). */
function configuredHeaders(config: HttpSinkConfig): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(config.headers)) headers[key.toLowerCase()] = value;
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
  const target = httpTarget(url);
  const baseHeaders = configuredHeaders(config);
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
    ...httpDispatcherTimeouts(config.timeout_ms),
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

  function deliver(delivery: Delivery, signal: AbortSignal, abort?: AttemptAbort): Promise<DeliveryResult> {
    return sendHttp({
      dispatcher: pool,
      target,
      method: config.method,
      headers: requestHeaders(delivery),
      body: delivery.hook.body,
      signal,
      abort,
      timeoutMs: config.timeout_ms,
    });
  }

  return {
    name,
    type: "http",
    inlineMaxBytes: undefined,
    deliver,
    describe: () => ({ payload: "body", protocol: "http", host: url.origin, address: url.pathname }),
    close: () => pool.close(),
  };
};

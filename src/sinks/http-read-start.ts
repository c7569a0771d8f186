// Reading a response body just enough: its start for a failure reason and the attempt history, and the rest
// drained so undici can put the keep-alive connection back in the pool. A body that goes on and on is cut off rather than read forever.
import type { Readable } from "node:stream";
import type { DeliveryResult } from "../domain/error-class.ts";
import { classifyAnswer } from "./http-classify.ts";

/** Bytes of the body kept for a failure reason and an attempt's excerpt (never more than 1 KiB of a response). */
export const KEEP_BYTES = 1024;
/** Past this many bytes, closing the connection is cheaper than draining it. */
export const DRAIN_LIMIT_BYTES = 64 * 1024;

/**
 * Consume `body`, returning its first `KEEP_BYTES` as UTF-8 text. Never rejects: a body that errors or is
 * aborted midway (timeout, reset) yields what arrived, since the status line has already decided the outcome.
 */
export async function readStart(body: Readable): Promise<string> {
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let seen = 0;
  try {
    for await (const chunk of body) {
      const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
      if (keptBytes < KEEP_BYTES) {
        const part = buf.subarray(0, KEEP_BYTES - keptBytes);
        kept.push(part);
        keptBytes += part.length;
      }
      seen += buf.length;
      if (seen > DRAIN_LIMIT_BYTES) {
        body.destroy();
        break;
      }
    }
  } catch {
    // The outcome rests on the status; a broken body only shortens the reason.
  }
  return Buffer.concat(kept).toString("utf8");
}

/**
 * What an HTTP answer means for a delivery: a 2xx is ok, anything else classified. Either way the
 * result's trace keeps the status and the start of the body (for the row's attempt history).
 */
export async function resultOfAnswer(response: {
  readonly statusCode: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Readable & { dump(opts: { limit: number }): Promise<void> };
}): Promise<DeliveryResult> {
  const status = response.statusCode;
  if (status >= 200 && status < 300 && response.headers["content-length"] === "0") {
    // The common empty success: nothing to keep, so no reading loop (undici just releases the body).
    await response.body.dump({ limit: DRAIN_LIMIT_BYTES }).catch(() => undefined);
    return { ok: true, trace: { statusCode: status } };
  }
  const bodyStart = await readStart(response.body);
  const trace = { statusCode: status, excerpt: bodyStart };
  if (status >= 200 && status < 300) return { ok: true, trace };
  return { ...classifyAnswer({ status, headers: response.headers, bodyStart }), trace };
}

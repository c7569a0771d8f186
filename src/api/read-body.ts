// Reads a request body into one Buffer without ever holding more than the cap: a declared
// Content-Length over it is refused before reading, a chunked body is cut off as soon as it passes it.
// Every route that reads a body reads it here: webhooks, and the admin API's JSON bodies.
import { ApiError } from "./api-error.ts";

/** An endpoint's body at most: 50 headers of 4 KiB, 100 patterns, a URL and a description fit. */
export const ENDPOINT_BODY_MAX_BYTES = 256 * 1024;

/** A replay's body at most: 10,000 ids of up to 200 characters, quoted, fit. */
export const REPLAY_BODY_MAX_BYTES = 4 * 1024 * 1024;

/** An event body's bytes beyond its payload's cap: the envelope (`type`, `id`, `tenant`, whitespace). */
export const EVENT_ENVELOPE_BYTES = 16 * 1024;

function tooLarge(maxBytes: number): ApiError {
  return new ApiError(413, "payload_too_large", `body exceeds ${maxBytes} bytes`, { connection: "close" });
}

/** The client went away, or was cut by the request timeout, before its body was complete. */
function incomplete(): ApiError {
  return new ApiError(400, "invalid_request", "the request body ended before it was complete", {
    connection: "close",
  });
}

export async function readBodyCapped(req: Request, maxBytes: number): Promise<Buffer> {
  const declared = req.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) throw tooLarge(maxBytes);
  try {
    return await readBody(req, declared !== null, maxBytes);
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw incomplete();
  }
}

/**
 * A JSON body read within `maxBytes` (413 as soon as it is crossed) and parsed (400 if not JSON). An
 * empty body is `empty` when given.
 */
export async function readJsonCapped(req: Request, maxBytes: number, empty?: unknown): Promise<unknown> {
  const text = (await readBodyCapped(req, maxBytes)).toString("utf8");
  if (empty !== undefined && text.trim() === "") return empty;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError(400, "invalid_request", "the body must be JSON");
  }
}

async function readBody(req: Request, declared: boolean, maxBytes: number): Promise<Buffer> {
  // The HTTP parser stops at Content-Length, so the whole body fits: take the adapter's fast path,
  // which reads the socket directly instead of through a web stream.
  if (declared) return Buffer.from(await req.arrayBuffer());
  if (req.body === null) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = req.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return chunks.length === 1 && chunks[0]
    ? Buffer.from(chunks[0].buffer, chunks[0].byteOffset, chunks[0].byteLength)
    : Buffer.concat(chunks, size);
}

// Reads a request body into one Buffer without ever holding more than the cap: a declared
// Content-Length over it is refused before reading, a chunked body is cut off as soon as it passes it.
import { ApiError } from "./api-error.ts";

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

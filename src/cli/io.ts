// What CLI commands write to and read from, passed in so they run the same in a terminal and in tests.
import type { Fetch } from "./admin-client.ts";

export interface CliIo {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly fetch?: Fetch;
  /** Poll interval of `dlq replay` (tests shorten it). */
  readonly pollMs?: number;
}

export function println(stream: NodeJS.WritableStream, text = ""): void {
  stream.write(`${text}\n`);
}

/**
 * Let a reader that stops early (`switchyard --help | head -2`) end our output without a stack trace:
 * an EPIPE on `stream` (and the writes refused after it) is dropped, so the command finishes as it
 * would have and exits with its own code. Any other write error still surfaces.
 */
export function tolerateClosedReader(stream: NodeJS.WritableStream): void {
  stream.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE" || err.code === "ERR_STREAM_DESTROYED") return;
    throw err;
  });
}

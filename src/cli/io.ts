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

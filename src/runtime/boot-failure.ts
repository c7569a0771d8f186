// Why a process could not start, in one line an operator can act on and with the exit code the README
// documents (69 unavailable, 78 config, 1 anything else). While a failed start tears down what it had
// half-started, errors from that teardown (BullMQ emits "Connection is closed." from a connection
// closed while it was still connecting) are noise: the guard keeps them from replacing the cause.
import { ConfigError, EX_CONFIG } from "../config/load.ts";
import type { Logger } from "../observability/logger.ts";
import { LayoutError } from "../store/layout/layouts.ts";

export const EX_UNAVAILABLE = 69;

export interface BootFailure {
  /** One line, without the `switchyard: ` prefix. */
  readonly line: string;
  readonly code: number;
}

interface ListenError extends Error {
  readonly code?: string;
  readonly syscall?: string;
  readonly address?: string;
  readonly port?: number;
}

const LISTEN_CAUSES: Readonly<Record<string, { reason: string; code: number }>> = {
  // Another process holds it: it may be gone by the platform's next restart.
  EADDRINUSE: { reason: "address in use", code: EX_UNAVAILABLE },
  // The config asks for something this machine will never give.
  EACCES: { reason: "permission denied (a port below 1024 needs privileges)", code: EX_CONFIG },
  EADDRNOTAVAIL: { reason: "no such address on this machine (http.host)", code: EX_CONFIG },
};

export function describeBootFailure(err: unknown): BootFailure {
  if (err instanceof ConfigError) return { line: err.message, code: EX_CONFIG };
  // Redis holds a layout this release must not write to (newer, or pre-ledger data).
  if (err instanceof LayoutError) return { line: err.message, code: err.exitCode };
  const e: ListenError = err instanceof Error ? err : new Error(String(err));
  if (e.syscall === "listen") {
    const cause = LISTEN_CAUSES[e.code ?? ""] ?? { reason: e.code ?? e.message, code: EX_UNAVAILABLE };
    return {
      line: `cannot listen on ${e.address ?? "?"}:${e.port ?? "?"}: ${cause.reason}`,
      code: cause.code,
    };
  }
  return { line: `could not start: ${e.message}`, code: 1 };
}

/** Print the cause as the process's last line and exit with its code. */
export function exitBoot(failure: BootFailure): never {
  process.stderr.write(`switchyard: ${failure.line}\n`);
  process.exit(failure.code);
}

/**
 * Catch what escapes while the process starts. Before a start has failed, an escaped error is itself
 * the cause; once it has (`failing()`), escaped errors come from tearing down and are only logged.
 * `release()` hands errors back to Node's defaults once the process is up.
 */
export function guardBoot(logger: Logger): { failing(): void; release(): void } {
  let tearingDown = false;
  const escaped = (err: unknown): void => {
    if (tearingDown) {
      logger.debug(
        { err: err instanceof Error ? err.message : String(err) },
        "error while undoing a failed start",
      );
      return;
    }
    exitBoot(describeBootFailure(err));
  };
  process.on("uncaughtException", escaped);
  process.on("unhandledRejection", escaped);
  return {
    failing: () => void (tearingDown = true),
    release: () => {
      process.off("uncaughtException", escaped);
      process.off("unhandledRejection", escaped);
    },
  };
}

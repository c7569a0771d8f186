// One pino logger for the process. Redaction is a second line of defence: code never logs bodies or secrets,
// and these paths catch the places where a whole config or header set might slip into a line.
// The level comes from the loaded config (`log_level`, fed by LOG_LEVEL), so one place decides it.
import { pino } from "pino";
import type { LogLevel } from "../config/fields.ts";
import { maskUserinfoIn } from "../domain/masked-url.ts";

export type Logger = pino.Logger;

const REDACT = [
  "secret",
  "secrets",
  "secrets_by_tenant",
  "token",
  "tokens",
  "password",
  "authorization",
  "*.secret",
  "*.secrets",
  "*.secrets_by_tenant",
  "*.token",
  "*.password",
  "*.authorization",
  "headers.authorization",
  "headers.cookie",
  "body",
  "*.body",
];

/** A line's string fields (and those one level down) with URL userinfo masked: `https://user:***@host`. */
function maskUrls(fields: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(fields)) {
    let masked = value;
    if (typeof value === "string") masked = maskUserinfoIn(value);
    else if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype)
      masked = maskUrls(value as Record<string, unknown>);
    if (masked !== value) (out ??= { ...fields })[key] = masked;
  }
  return out ?? fields;
}

export function createLogger(opts: {
  level: LogLevel;
  name?: string;
  /** Where lines go (default: stdout). */
  destination?: pino.DestinationStream;
}): Logger {
  return pino(
    {
      name: opts.name ?? "switchyard",
      level: opts.level,
      redact: { paths: REDACT, censor: "[redacted]" },
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { log: maskUrls },
    },
    opts.destination,
  );
}

/** A logger that writes nothing: for tests and benchmarks that measure without log I/O. */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}

// What the CLI's commands share about their input: exit codes, the usage error, and the option
// parsers (times, positive integers, the DLQ filters), so every command reads a flag the same way and
// a typo fails with a clear message before anything talks to a server.
import { type Command, InvalidArgumentError, Option } from "commander";
import type { ErrorClass } from "../domain/error-class.ts";

/** Exit codes (sysexits.h), so scripts can tell a usage error from an unreachable server. */
export const EXIT = { ok: 0, failure: 1, usage: 64, unavailable: 69, noperm: 77, config: 78 } as const;

/** A problem with what the user typed: printed with a hint, exit 64. */
export class UsageError extends Error {}

export interface DlqFilterArgs {
  readonly source?: string;
  readonly sink?: string;
  readonly endpoint?: string;
  readonly error_class?: ErrorClass;
  /** ISO 8601 (relative forms like `1h` are resolved at parse time). */
  readonly since?: string;
  readonly until?: string;
}

const AGE = /^(\d+(?:\.\d+)?)(s|m|h|d|w)$/;
const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** TIME as the API takes it: ISO 8601 or epoch ms as given, an age (`2h`) as the ISO instant that long ago. */
export function parseTime(value: string, flag: string, now: number = Date.now()): string {
  const age = AGE.exec(value);
  if (age) return new Date(now - Number(age[1]) * (UNIT_MS[age[2] as string] as number)).toISOString();
  if (/^\d{1,15}$/.test(value)) return value;
  if (/^\d{4}-\d\d-\d\d/.test(value) && Number.isFinite(Date.parse(value))) return value;
  throw new UsageError(`${flag}: "${value}" is not a time (ISO 8601, epoch ms, or an age like 30m, 2h, 7d)`);
}

/** An option parser for a positive integer of at most `max`. */
export function positiveInt(flag: string, max = Number.MAX_SAFE_INTEGER): (value: string) => number {
  return (value) => {
    if (!/^\d+$/.test(value) || Number(value) < 1)
      throw new InvalidArgumentError(`${flag} must be a positive integer`);
    if (Number(value) > max) throw new InvalidArgumentError(`${flag} is at most ${max}`);
    return Number(value);
  };
}

/** `--limit N` and `--cursor C` of a paged listing. */
export function addPaging(cmd: Command, max: number): Command {
  return cmd
    .addOption(new Option("--limit <n>", `page size (at most ${max})`).argParser(positiveInt("--limit", max)))
    .option("--cursor <cursor>", "continue after the page that printed this cursor");
}

/** The filters of `dlq list` and `dlq replay`, as the API names them. */
export function addDlqFilters(cmd: Command): Command {
  return cmd
    .option("--source <name>", "only this source (inbound deliveries)")
    .option("--sink <name>", "only this sink (inbound deliveries)")
    .addOption(
      new Option("--endpoint <id>", "only this endpoint (outbound deliveries, ep_…)").argParser(endpointId),
    )
    .addOption(
      new Option("--error-class <class>", "only this error class").choices([
        "permanent",
        "throttled",
        "transient",
      ]),
    )
    .option("--since <time>", "dead at or after TIME (ISO 8601, epoch ms, or an age like 30m, 2h, 7d)")
    .option("--until <time>", "dead at or before TIME");
}

/** An endpoint id as the CLI accepts it, checked before it reaches the API. */
export function endpointId(value: string): string {
  if (!/^ep_[0-9a-z]{26}$/.test(value))
    throw new InvalidArgumentError(`"${value}" is not an endpoint id (ep_…)`);
  return value;
}

interface FilterOptions {
  readonly source?: string;
  readonly sink?: string;
  readonly endpoint?: string;
  readonly errorClass?: string;
  readonly since?: string;
  readonly until?: string;
}

/** The API's filter from the parsed options; ages become ISO instants against `now`. */
export function filterOf(v: FilterOptions, now: number = Date.now()): DlqFilterArgs {
  const out: { -readonly [K in keyof DlqFilterArgs]: DlqFilterArgs[K] } = {};
  if (v.source !== undefined) out.source = v.source;
  if (v.sink !== undefined) out.sink = v.sink;
  if (v.endpoint !== undefined) out.endpoint = v.endpoint;
  // Commander has checked it against the choices.
  if (v.errorClass !== undefined) out.error_class = v.errorClass as ErrorClass;
  if (v.since !== undefined) out.since = parseTime(v.since, "--since", now);
  if (v.until !== undefined) out.until = parseTime(v.until, "--until", now);
  return out;
}

/** A replay id as the CLI accepts it, checked before it reaches a URL. */
export function replayId(value: string): string {
  if (!/^rp_[0-9a-z]{26}$/.test(value))
    throw new InvalidArgumentError(`"${value}" is not a replay id (rp_…)`);
  return value;
}

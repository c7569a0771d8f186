// Command-line parsing for `switchyard`: subcommands and their options, checked up front so a typo
// fails with usage help before anything talks to a server. node:util parseArgs only, no framework.
import { parseArgs } from "node:util";

/** Exit codes (sysexits.h), so scripts can tell a usage error from an unreachable server. */
export const EXIT = { ok: 0, failure: 1, usage: 64, unavailable: 69, noperm: 77, config: 78 } as const;

/** A problem with what the user typed: printed with a hint, exit 64. */
export class UsageError extends Error {}

export interface DlqFilterArgs {
  readonly source?: string;
  readonly sink?: string;
  readonly error_class?: string;
  /** ISO 8601 (relative forms like `1h` are resolved at parse time). */
  readonly since?: string;
  readonly until?: string;
}

export type Command =
  | { readonly kind: "help"; readonly topic?: string }
  | { readonly kind: "check-config"; readonly file?: string }
  | { readonly kind: "print-config"; readonly file?: string; readonly json: boolean }
  | {
      readonly kind: "dlq-list";
      readonly filter: DlqFilterArgs;
      readonly limit?: number;
      readonly cursor?: string;
      readonly json: boolean;
    }
  | {
      readonly kind: "dlq-replay";
      readonly filter: DlqFilterArgs;
      readonly ids: readonly string[];
      readonly rate?: number;
      readonly wait: boolean;
      readonly json: boolean;
    }
  | { readonly kind: "hooks-show"; readonly id: string; readonly body: boolean; readonly json: boolean };

export const USAGE = `Usage: switchyard <command> [options]

Commands:
  check-config [FILE]          validate the config (default: $SWITCHYARD_CONFIG, ./switchyard.yaml, bundled)
  print-config [FILE] [--json] print the effective config, secrets redacted
  dlq list [filters] [--limit N] [--cursor C] [--json]
                               list dead deliveries, newest first
  dlq replay [filters] [--id ID]... [--rate N] [--all] [--no-wait] [--json]
                               move dead deliveries back to their queues and show progress
  hooks show ID [--body] [--json]
                               a hook's metadata and per-sink delivery state

Filters: --source NAME --sink NAME --error-class permanent|throttled|transient
         --since TIME --until TIME   (TIME: ISO 8601, epoch ms, or an age like 30m, 2h, 7d)

Admin commands call the API at $SWITCHYARD_URL (default http://127.0.0.1:3000) with the bearer
token in $SWITCHYARD_ADMIN_TOKEN; --url overrides the address.`;

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

function positiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`${flag} must be a positive integer`);
  return Number(value);
}

const FILTER_OPTIONS = {
  source: { type: "string" },
  sink: { type: "string" },
  "error-class": { type: "string" },
  since: { type: "string" },
  until: { type: "string" },
} as const;

type FilterValues = {
  source?: string;
  sink?: string;
  "error-class"?: string;
  since?: string;
  until?: string;
};

function filterOf(v: FilterValues, now: number): DlqFilterArgs {
  const out: Record<string, string> = {};
  if (v.source !== undefined) out.source = v.source;
  if (v.sink !== undefined) out.sink = v.sink;
  if (v["error-class"] !== undefined) {
    if (!["permanent", "throttled", "transient"].includes(v["error-class"])) {
      throw new UsageError("--error-class must be permanent, throttled or transient");
    }
    out.error_class = v["error-class"];
  }
  if (v.since !== undefined) out.since = parseTime(v.since, "--since", now);
  if (v.until !== undefined) out.until = parseTime(v.until, "--until", now);
  return out;
}

/** Run parseArgs, turning its errors (unknown option, missing value) into usage errors. */
function parse<T extends NonNullable<Parameters<typeof parseArgs>[0]>["options"]>(
  args: string[],
  options: T,
) {
  try {
    return parseArgs({
      args,
      options: { ...options, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

function noMorePositionals(positionals: string[], max: number, command: string): void {
  if (positionals.length > max) throw new UsageError(`${command}: unexpected argument "${positionals[max]}"`);
}

/** Parse argv (without `node` and the script) into a command and the global `--url`. */
export function parseCommand(
  argv: readonly string[],
  now: number = Date.now(),
): { command: Command; url?: string } {
  // --url may come anywhere; take it out first so every subcommand accepts it.
  const args = [...argv];
  let url: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--url" || arg.startsWith("--url=")) {
      url = arg === "--url" ? args[i + 1] : arg.slice("--url=".length);
      if (!url) throw new UsageError("--url needs a value");
      args.splice(i, arg === "--url" ? 2 : 1);
      i -= 1;
    }
  }
  const withUrl = (command: Command): { command: Command; url?: string } =>
    url === undefined ? { command } : { command, url };
  const [first, second] = args;
  if (first === undefined || first === "help" || first === "--help" || first === "-h")
    return withUrl({ kind: "help" });

  switch (first) {
    case "check-config": {
      const { values, positionals } = parse(args.slice(1), { config: { type: "string", short: "c" } });
      if (values.help) return withUrl({ kind: "help", topic: first });
      noMorePositionals(positionals, 1, first);
      const file = (values.config as string | undefined) ?? positionals[0];
      return withUrl(file === undefined ? { kind: "check-config" } : { kind: "check-config", file });
    }
    case "print-config": {
      const { values, positionals } = parse(args.slice(1), {
        config: { type: "string", short: "c" },
        json: { type: "boolean" },
      });
      if (values.help) return withUrl({ kind: "help", topic: first });
      noMorePositionals(positionals, 1, first);
      const file = (values.config as string | undefined) ?? positionals[0];
      return withUrl({
        kind: "print-config",
        json: values.json === true,
        ...(file === undefined ? {} : { file }),
      });
    }
    case "dlq":
      return withUrl(parseDlq(second, args.slice(2), now));
    case "hooks": {
      if (second !== "show")
        throw new UsageError(
          second === undefined
            ? "hooks: which subcommand? (show)"
            : `hooks: unknown subcommand "${second}" (show)`,
        );
      const { values, positionals } = parse(args.slice(2), {
        body: { type: "boolean" },
        json: { type: "boolean" },
      });
      if (values.help) return withUrl({ kind: "help", topic: "hooks" });
      const id = positionals[0];
      if (id === undefined) throw new UsageError("hooks show: which hook? (switchyard hooks show hk_…)");
      noMorePositionals(positionals, 1, "hooks show");
      return withUrl({ kind: "hooks-show", id, body: values.body === true, json: values.json === true });
    }
    default:
      throw new UsageError(`unknown command "${first}"`);
  }
}

function parseDlq(sub: string | undefined, rest: string[], now: number): Command {
  switch (sub) {
    case "list": {
      const { values, positionals } = parse(rest, {
        ...FILTER_OPTIONS,
        limit: { type: "string" },
        cursor: { type: "string" },
        json: { type: "boolean" },
      });
      if (values.help) return { kind: "help", topic: "dlq" };
      noMorePositionals(positionals, 0, "dlq list");
      const limit = positiveInt(values.limit as string | undefined, "--limit");
      if (limit !== undefined && limit > 1000) throw new UsageError("--limit is at most 1000");
      const cursor = values.cursor as string | undefined;
      return {
        kind: "dlq-list",
        filter: filterOf(values as FilterValues, now),
        json: values.json === true,
        ...(limit === undefined ? {} : { limit }),
        ...(cursor === undefined ? {} : { cursor }),
      };
    }
    case "replay": {
      const { values, positionals } = parse(rest, {
        ...FILTER_OPTIONS,
        id: { type: "string", multiple: true },
        rate: { type: "string" },
        all: { type: "boolean" },
        "no-wait": { type: "boolean" },
        json: { type: "boolean" },
      });
      if (values.help) return { kind: "help", topic: "dlq" };
      noMorePositionals(positionals, 0, "dlq replay");
      const filter = filterOf(values as FilterValues, now);
      const ids = (values.id as string[] | undefined) ?? [];
      if (Object.keys(filter).length === 0 && ids.length === 0 && values.all !== true) {
        throw new UsageError(
          "dlq replay: give a filter (--source, --sink, --error-class, --since, --until, --id) or --all to replay the whole DLQ",
        );
      }
      const rate = positiveInt(values.rate as string | undefined, "--rate");
      return {
        kind: "dlq-replay",
        filter,
        ids,
        wait: values["no-wait"] !== true,
        json: values.json === true,
        ...(rate === undefined ? {} : { rate }),
      };
    }
    case undefined:
      throw new UsageError("dlq: which subcommand? (list, replay)");
    default:
      throw new UsageError(`dlq: unknown subcommand "${sub}" (list, replay)`);
  }
}

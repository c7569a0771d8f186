// The two flags every benchmark script shares with `npm run bench` (bench/suite/main.ts), which runs each
// script as a child process: --json FILE (write the machine-readable result there) and --quick (a much
// smaller run, a smoke test of the script rather than a measurement). Also the progress lines a child
// writes on stderr, which the suite shows as what the scenario is doing.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { parseArgs } from "node:util";

export interface BenchFlags {
  readonly json: string | undefined;
  readonly quick: boolean;
}

/** --json and --quick from the command line; other arguments are left to the script. */
export function benchFlags(argv: readonly string[] = process.argv.slice(2)): BenchFlags {
  const { values } = parseArgs({
    args: [...argv],
    options: { json: { type: "string" }, quick: { type: "boolean", default: false } },
    strict: false,
    allowPositionals: true,
  });
  return {
    json: typeof values.json === "string" ? values.json : undefined,
    quick: values.quick === true,
  };
}

/** A number from the environment, else the quick or the full default. */
export function knob(name: string, quick: boolean, quickDefault: number, fullDefault: number): number {
  const set = process.env[name];
  return set !== undefined && set !== "" ? Number(set) : quick ? quickDefault : fullDefault;
}

/** Write `result` as JSON to `file` (NaN and ±Infinity become null, as JSON has neither). */
export function writeResult(file: string | undefined, result: unknown): void {
  if (!file) return;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
}

/** The line the suite shows as what this script is doing now (harmless when run alone). */
export const PROGRESS_MARK = "» ";
export function progress(text: string): void {
  process.stderr.write(`${PROGRESS_MARK}${text}\n`);
}

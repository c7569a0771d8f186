// Where a chaos run's processes' logs go when they are kept (a failed run, or CHAOS_KEEP_LOGS=1): out of
// the temp dir, which the test run removes, into test/artifacts/ (ignored by git).
import { cpSync, mkdirSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import { ROOT } from "../built-dist.ts";

/** Move `dir` under test/artifacts/ and return where it now is. */
export function keepLogs(dir: string): string {
  const kept = join(ROOT, "test", "artifacts", basename(dir));
  mkdirSync(join(kept, ".."), { recursive: true });
  cpSync(dir, kept, { recursive: true });
  rmSync(dir, { recursive: true, force: true });
  return kept;
}

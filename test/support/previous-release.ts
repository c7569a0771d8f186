// A previous release of this repository, checked out from its own history into the test run's temp
// folder and built there with its own lockfile, for tests that run it beside the current code (a
// rolling upgrade). Built once per run and commit: later tests of the run reuse the tree, and the
// run's temp folder (run-tmpdir.ts) is removed with everything in it when the run ends (unless
// SWITCHYARD_RELEASE_CACHE names a folder to keep builds in across runs).
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { ROOT } from "./built-dist.ts";

/** Release 0.1.0: the last release, which wrote data layout 1. */
export const RELEASE_0_1_0 = "d5dabd7";

/** The built tree of `commit` (its `dist/workers/main.js` runs it), building it if this run has not. */
export async function previousRelease(commit: string): Promise<string> {
  // SWITCHYARD_RELEASE_CACHE: a folder kept across runs (a developer rerunning the test), else the run's.
  const dir = join(process.env.SWITCHYARD_RELEASE_CACHE ?? tmpdir(), `switchyard-release-${commit}`);
  const entry = join(dir, "dist", "workers", "main.js");
  if (existsSync(entry)) return dir;
  // Built beside, then moved in place: a build cut short is never mistaken for a finished one.
  const building = `${dir}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  const run = (cmd: string, args: string[]) =>
    promisify(execFile)(cmd, args, { cwd: building, timeout: 300_000, maxBuffer: 64 * 1024 * 1024 });
  await run("sh", ["-c", `git -C "${ROOT}" archive ${commit} | tar -x`]);
  await run("npm", ["ci", "--prefer-offline", "--no-audit", "--no-fund", "--omit=optional"]);
  await run("npm", ["run", "build"]);
  rmSync(dir, { recursive: true, force: true });
  renameSync(building, dir);
  return dir;
}

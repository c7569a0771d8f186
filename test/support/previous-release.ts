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

/**
 * Write the files of `commit` of this repository into `dir`. The commit must be in the history: a
 * shallow clone lacks it, and the error says so rather than leaving git's one-line complaint.
 */
export async function archiveCommit(commit: string, dir: string): Promise<void> {
  const git = (args: string[]) =>
    promisify(execFile)("git", ["-C", ROOT, ...args], { maxBuffer: 1024 * 1024 });
  try {
    await git(["cat-file", "-e", `${commit}^{commit}`]);
  } catch {
    const shallow = (await git(["rev-parse", "--is-shallow-repository"]).catch(() => ({ stdout: "" })))
      .stdout;
    throw new Error(
      `commit ${commit} (a previous release this test runs) is not in this clone's history` +
        (shallow.trim() === "true" ? ": the clone is shallow; run `git fetch --unshallow` first" : ""),
    );
  }
  await promisify(execFile)("sh", ["-c", `git -C "${ROOT}" archive ${commit} | tar -x -C "${dir}"`], {
    maxBuffer: 64 * 1024 * 1024,
  });
}

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
  await archiveCommit(commit, building);
  await run("npm", ["ci", "--prefer-offline", "--no-audit", "--no-fund", "--omit=optional"]);
  await run("npm", ["run", "build"]);
  rmSync(dir, { recursive: true, force: true });
  renameSync(building, dir);
  return dir;
}

// Vitest global setup: every temp file and folder of a test run (the tests' own, the processes they
// start and those processes' private Redis servers) goes under one folder made for the run, which is
// removed when the run ends, passed or failed, so no run leaves anything in the system's temp dir.
// Each test still removes what it makes; this catches what a failing or killed test leaves behind.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): () => void {
  const outer = process.env.TMPDIR;
  const dir = mkdtempSync(join(tmpdir(), "switchyard-test-run-"));
  // os.tmpdir() reads TMPDIR on every call, and the test workers and their children inherit it.
  process.env.TMPDIR = dir;
  return () => {
    rmSync(dir, { recursive: true, force: true });
    if (outer === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = outer;
  };
}

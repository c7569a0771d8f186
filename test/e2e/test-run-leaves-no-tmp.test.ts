// Regression: a run of the suite left about seven folders in /tmp (temp configs never removed, private
// Redis dirs of processes killed by a test). A test run now keeps all its temp files under one folder
// that it removes at the end (test/support/run-tmpdir.ts); this runs a test file that used to leave
// its folder behind, in a run of its own pointed at an empty temp dir, and finds that dir empty after.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { ROOT } from "../support/built-dist.ts";

const outer = mkdtempSync(join(tmpdir(), "sy-nested-run-"));
afterAll(() => rmSync(outer, { recursive: true, force: true }));

it("a test run leaves nothing in the temp dir", () => {
  const env: Record<string, string | undefined> = { ...process.env, TMPDIR: outer };
  for (const key of Object.keys(env)) if (key.startsWith("VITEST")) delete env[key];
  const run = spawnSync("npx", ["vitest", "run", "test/unit/print-config-redaction.test.ts"], {
    cwd: ROOT,
    env,
    encoding: "utf8",
  });
  expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
  expect(readdirSync(outer)).toEqual([]);
}, 120_000);

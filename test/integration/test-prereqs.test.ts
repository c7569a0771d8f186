// Regression: `npm test` failed on a fresh machine (no Chromium: the dashboard's browser test failed;
// no promtool: its checks were skipped quietly), and only .ci/run knew how to bring the services up.
// npm test's pretest now brings up what it can and, for what it cannot, stops before any test with one
// line naming the exact command to run.
import { spawnSync } from "node:child_process";
import { expect, it } from "vitest";
import { ROOT } from "../support/built-dist.ts";

function prereqs(env: Record<string, string>) {
  return spawnSync(process.execPath, ["scripts/test-prereqs.mjs"], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: "utf8",
  });
}

it("npm test runs the prerequisites script first", async () => {
  const { readFile } = await import("node:fs/promises");
  const pkg = JSON.parse(await readFile(`${ROOT}/package.json`, "utf8")) as {
    scripts: Record<string, string>;
  };
  expect(pkg.scripts.pretest).toBe("node scripts/test-prereqs.mjs");
});

it("a missing Chromium it may not install stops with one line naming the command to run", () => {
  const run = prereqs({ SWITCHYARD_PREREQS_INSTALL: "0", CHROMIUM_PATH: "/nonexistent/chromium" });
  expect(run.status).toBe(1);
  expect(run.stderr.trim().split("\n")).toEqual([
    'test-prereqs: no Chromium at /nonexistent/chromium (the dashboard\'s browser test): run "apt-get update && apt-get install -y -qq chromium" (as root), then npm test again',
  ]);
});

it("with everything present and answering it does nothing and exits 0", () => {
  const run = prereqs({ SWITCHYARD_PREREQS_INSTALL: "0" });
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
});

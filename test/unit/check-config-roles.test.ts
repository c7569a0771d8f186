// check-config once judged every config as if for the Procfile's worker (dispatch,recovery) unless told
// otherwise, so `npm start` users (every role in one process, the Docker image's default too) were
// warned about, and failed `--strict` on, settings only a worker without the API needs. It now checks
// for the roles the process will run: --roles, else SWITCHYARD_ROLES, else every role, as boot does.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runCli } from "../../src/cli/run.ts";

let dir: string;
let file: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "sy-check-roles-"));
  file = join(dir, "switchyard.yaml");
  // A queue sink and no public_url or metrics_port: fine in one process, not in a worker without the API.
  writeFileSync(
    file,
    "sinks: { bus: { type: amqp, url: 'amqp://127.0.0.1', exchange: hooks } }\nsources: { s: { verify: { type: none }, sinks: [bus] } }\n",
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function check(args: string[], env: Record<string, string> = {}) {
  let stdout = "";
  let stderr = "";
  const out = new PassThrough().on("data", (d: Buffer) => (stdout += d.toString()));
  const err = new PassThrough().on("data", (d: Buffer) => (stderr += d.toString()));
  const code = await runCli(["check-config", file, ...args], { stdout: out, stderr: err, env });
  return { code, stdout, stderr, warnings: stderr.split("\n").filter((l) => l.startsWith("warning: ")) };
}

it("checks for every role by default, as npm start and the Docker image run, and passes --strict", async () => {
  const run = await check(["--strict"]);
  expect(run.code).toBe(0);
  expect(run.warnings).toEqual([]);
  expect(run.stdout).toContain("is valid");
  // Still says what a Procfile worker would be told, and how to see it.
  expect(run.stderr).toMatch(
    /^note: checked for a process with roles api,dispatch,recovery; with --roles dispatch,recovery \(the Procfile's worker\) it warns about http\.public_url, http\.metrics_port$/m,
  );
});

it("checks for SWITCHYARD_ROLES, or --roles over it, and then warns for a worker", async () => {
  for (const run of [
    await check(["--strict"], { SWITCHYARD_ROLES: "dispatch,recovery" }),
    await check(["--strict", "--roles", "dispatch"], { SWITCHYARD_ROLES: "api" }),
  ]) {
    expect(run.code).toBe(78);
    expect(run.warnings).toEqual([
      expect.stringMatching(/^warning: http\.public_url: /),
      expect.stringMatching(/^warning: http\.metrics_port: /),
    ]);
    expect(run.stderr).not.toContain("note:");
  }
  const web = await check(["--strict"], { SWITCHYARD_ROLES: "api" });
  expect(web).toMatchObject({ code: 0, warnings: [], stderr: "" });
});

// `switchyard … | head` closes the CLI's stdout before it is done writing. The write then fails with
// EPIPE, which once escaped as an unhandled 'error' event: a stack trace on stderr and exit 1. The
// reader here closes its end before the CLI writes anything, so every run hits EPIPE.
import { spawn } from "node:child_process";
import { expect, it } from "vitest";

function runWithClosedStdout(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["bin/switchyard.mjs", ...args], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.destroy();
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

it("exits quietly when its stdout is closed early (EPIPE from `switchyard --help | head`)", async () => {
  const runs = await Promise.all([runWithClosedStdout(["--help"]), runWithClosedStdout(["dlq", "--help"])]);
  for (const run of runs) {
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
  }
}, 60_000);

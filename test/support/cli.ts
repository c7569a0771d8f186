// Runs the `switchyard` command as an operator does (node bin/switchyard.mjs …) against a gateway.
import { execFile } from "node:child_process";
import { ADMIN_TOKEN } from "./test-gateway.ts";

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Run the CLI with the gateway at `url` and the test admin token; `env` adds to or overrides that. */
export function runSwitchyard(
  url: string,
  args: string[],
  env: Record<string, string> = {},
  timeoutMs = 30_000,
): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["bin/switchyard.mjs", ...args],
      {
        env: { ...process.env, SWITCHYARD_URL: url, SWITCHYARD_ADMIN_TOKEN: ADMIN_TOKEN, ...env },
        timeout: timeoutMs,
      },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

// An entry point (workers/*.ts through tsx, or dist/workers/*.js) run as an operator runs it, with its
// output captured, for tests of how a process boots, fails to boot and stops.
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { afterEach } from "vitest";
import { ROOT } from "./built-dist.ts";

export interface EntryProcess {
  readonly child: ChildProcess;
  /** The exit code (null when killed by a signal). */
  readonly exited: Promise<number | null>;
  out(): string;
  err(): string;
}

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

/** Run `entry` (relative to the repo root): a `.ts` file through tsx, anything else with plain node. */
export function runEntry(entry: string, env: Record<string, string>): EntryProcess {
  const args = entry.endsWith(".ts") ? ["--import", "tsx", entry] : [entry];
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env } });
  started.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d) => (stdout += d));
  child.stderr!.on("data", (d) => (stderr += d));
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  return { child, exited, out: () => stdout, err: () => stderr };
}

export const DIST_MAIN = join("dist", "workers", "main.js");

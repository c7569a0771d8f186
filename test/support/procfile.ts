// The Procfile's processes as a platform runs them: the line through a shell in exec form, in a
// process group of its own, with the platform's environment. Tests signal the pid (what a container
// runtime does) or the group (what a dyno manager does) and read the JSON log lines back.
import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, buildOnce } from "./built-dist.ts";

export { ROOT };

/** The Procfile's command for `role`. */
export function procfileCommand(role: string): string {
  for (const line of readFileSync(join(ROOT, "Procfile"), "utf8").split("\n")) {
    const match = /^([A-Za-z0-9_-]+):\s*(.+)$/.exec(line.trim());
    if (match?.[1] === role && match[2] !== undefined) return match[2];
  }
  throw new Error(`Procfile has no "${role}" process`);
}

export interface LogLine {
  readonly level: number;
  readonly msg: string;
  readonly [key: string]: unknown;
}

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface RoleProcess {
  readonly role: string;
  readonly child: ChildProcess;
  /** How the process the Procfile line started ended: its code, or the signal that ended it. */
  readonly exited: Promise<Exit>;
  out(): string;
  err(): string;
  lines(): LogLine[];
  /** SIGKILL whatever of the group is left, and remove its log files (cleanup). */
  kill(): void;
}

// Output goes to files, not pipes: the test process, busy sending hooks, may drain a pipe late, and a
// writer facing a full pipe waits (pino retries such a write every 100 ms). A platform's log
// collector reads on its own.
export function startRole(role: string, env: Record<string, string>): RoleProcess {
  const inherited = { ...process.env };
  delete inherited.SWITCHYARD_ROLES;
  const dir = mkdtempSync(join(tmpdir(), `sy-${role}-`));
  const [outFile, errFile] = [join(dir, "stdout"), join(dir, "stderr")];
  const [outFd, errFd] = [openSync(outFile, "w"), openSync(errFile, "w")];
  const child = spawn(`exec ${procfileCommand(role)}`, {
    shell: true,
    cwd: ROOT,
    detached: true,
    env: { ...inherited, ...env },
    stdio: ["ignore", outFd, errFd],
  });
  closeSync(outFd);
  closeSync(errFd);
  const exited = new Promise<Exit>((r) => child.once("exit", (code, signal) => r({ code, signal })));
  const read = (file: string): string => {
    try {
      return readFileSync(file, "utf8");
    } catch {
      return "";
    }
  };
  return {
    role,
    child,
    exited,
    out: () => read(outFile),
    err: () => read(errFile),
    lines: () =>
      read(outFile)
        .split("\n")
        .slice(0, -1) // the text after the last newline is a line still being written
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as LogLine),
    kill: () => {
      if (groupAlive(child)) process.kill(-child.pid!, "SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function groupAlive(child: ChildProcess): boolean {
  try {
    process.kill(-child.pid!, 0);
    return true;
  } catch {
    return false;
  }
}

/** Resolves once the role logged that it is up: "listening" with the API, "running" without. */
export async function roleUp(proc: RoleProcess, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!proc.lines().some((l) => l.msg === "switchyard listening" || l.msg === "switchyard running")) {
    if (proc.child.exitCode !== null)
      throw new Error(`${proc.role} exited ${proc.child.exitCode}: ${proc.err()}`);
    if (Date.now() > deadline) throw new Error(`${proc.role} not up after ${timeoutMs} ms: ${proc.err()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** A switchyard.yaml of `lines` in a temp dir; `remove` deletes the dir. */
export function tempConfig(lines: readonly string[]): { file: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "sy-procfile-"));
  const file = join(dir, "switchyard.yaml");
  writeFileSync(file, lines.join("\n"));
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Does any of `commands` run compiled output (a path under dist/)? */
export function runsCompiledOutput(commands: Iterable<string>): boolean {
  for (const command of commands) if (/(^|[\s/"'])dist\//.test(command)) return true;
  return false;
}

/**
 * Build once (shared with every other test file) when the Procfile's `roles` run compiled output, so a
 * compiled deploy is tested on fresh code and a tsx one as it is; returns what was done, for a log.
 */
export async function buildIfNeeded(roles: readonly string[]): Promise<"built" | "not needed"> {
  if (!runsCompiledOutput(roles.map(procfileCommand))) return "not needed";
  await buildOnce();
  return "built";
}

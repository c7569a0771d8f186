// How `npm run bench` runs one step: the benchmark script as a child process in its own process group,
// its output copied to the run's log, its progress lines ("» …", shared/flags.ts) shown on one status
// line with the step number and the time elapsed, and a way to stop it (and whatever it started in its
// group) when the suite itself is stopped.
import { type ChildProcess, spawn } from "node:child_process";
import type { WriteStream } from "node:fs";
import { createInterface } from "node:readline";
import { PROGRESS_MARK } from "../shared/flags.ts";

const clock = (ms: number): string => {
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
};

/** The status line on stderr: rewritten in place on a terminal, a line per change (or 30 s) otherwise. */
export class Progress {
  private readonly started = Date.now();
  private stepStarted = Date.now();
  private title = "";
  private doing = "";
  private lastPrinted = 0;
  private readonly tty = process.stderr.isTTY;
  private readonly timer: NodeJS.Timeout;

  constructor() {
    this.timer = setInterval(() => this.render(false), 1000);
    this.timer.unref();
  }

  step(k: number, n: number, label: string): void {
    this.title = `[${k}/${n}] ${label}`;
    this.stepStarted = Date.now();
    this.doing = "starting";
    this.render(true);
  }

  say(doing: string): void {
    this.doing = doing;
    this.render(true);
  }

  /** End the current step's line with how it went. */
  finish(outcome: string): void {
    this.doing = outcome;
    this.render(true);
    if (this.tty) process.stderr.write("\n");
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private render(changed: boolean): void {
    if (!this.title) return;
    const now = Date.now();
    if (!this.tty && !changed && now - this.lastPrinted < 30_000) return;
    this.lastPrinted = now;
    const line = `${this.title} · ${this.doing} · ${clock(now - this.stepStarted)} (suite ${clock(now - this.started)})`;
    if (this.tty) {
      const width = process.stderr.columns || 120;
      process.stderr.write(`\r\x1b[K${line.length > width - 1 ? `${line.slice(0, width - 2)}…` : line}`);
    } else {
      process.stderr.write(`${line}\n`);
    }
  }
}

export interface ChildOutcome {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

let current: ChildProcess | undefined;

/** Run `node --import tsx script args` in `cwd` until it exits; every output line goes to `log`. */
export function runChild(
  o: { script: string; args: readonly string[]; env: Readonly<Record<string, string>>; cwd: string },
  log: WriteStream,
  progress: Progress,
): Promise<ChildOutcome> {
  const child = spawn(process.execPath, ["--import", "tsx", o.script, ...o.args], {
    cwd: o.cwd,
    env: { ...process.env, ...o.env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  current = child;
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on("line", (line) => {
      log.write(`${line}\n`);
      if (line.startsWith(PROGRESS_MARK)) progress.say(line.slice(PROGRESS_MARK.length));
    });
  }
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    // Whatever the script left in its group goes when it exits; its last lines are read by "close".
    child.once("exit", () => killGroup(child));
    child.once("close", (code, signal) => {
      current = undefined;
      resolve({ code, signal });
    });
  });
}

function killGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, "SIGKILL"); // anything it left in its group
  } catch {
    // the group is gone
  }
}

/** Stop the running child: SIGTERM so it can clean up (bench:e2e stops its process groups), then its group. */
export async function stopChild(): Promise<void> {
  const child = current;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  const timer = setTimeout(() => killGroup(child), 20_000);
  await exited;
  clearTimeout(timer);
  killGroup(child);
}

// Switchyard processes as a platform runs them: each a Procfile command in a shell, in a process group
// of its own (so a kill reaches the node processes npx and tsx start under it), restarted a moment after
// it dies, as a platform restarts a crashed dyno. The harness kills them; the supervisor brings them back
// and notes every exit it did not ask for, with its code, as evidence.
import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, openSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import { ROOT, procfileCommand } from "../procfile.ts";

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** One exit of a process: asked for by the harness (a fault, the final stop) or not. */
export interface ExitRecord {
  readonly name: string;
  readonly at: number;
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly expected: boolean;
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** One Procfile process (e.g. `worker.2`), kept running until `stop`. */
export class RoleProcess {
  private child: ChildProcess | undefined;
  private stopping = false;
  private expectExit = false;
  private exited: Promise<void> = Promise.resolve();
  /** Where this run of the process began writing its log, and how far `delivering` has read it. */
  private logStart = 0;
  private logScanned = 0;
  private delivered = false;
  /** How many times it was started (1 + restarts). */
  starts = 0;

  constructor(
    readonly name: string,
    private readonly command: string,
    private readonly env: Readonly<Record<string, string>>,
    private readonly logFile: string,
    private readonly exits: ExitRecord[],
    private readonly restartDelayMs: number,
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): void {
    const inherited: Record<string, string | undefined> = { ...process.env };
    delete inherited.SWITCHYARD_ROLES;
    const log = openSync(this.logFile, "a");
    this.logStart = this.logScanned = statSync(this.logFile).size;
    this.delivered = false;
    const child = spawn(`exec ${this.command}`, {
      shell: true,
      cwd: ROOT,
      detached: true,
      env: { ...inherited, ...this.env },
      stdio: ["ignore", log, log],
    });
    closeSync(log);
    this.child = child;
    this.starts += 1;
    this.exited = new Promise((resolve) => {
      child.once("exit", (code, signal) => {
        void this.onExit(child, code, signal).then(resolve);
      });
    });
  }

  private async onExit(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null) {
    this.exits.push({ name: this.name, at: Date.now(), code, signal, expected: this.expectExit });
    this.expectExit = false;
    // The shell's exit is not the end of its group: wait for the node processes under it.
    for (let i = 0; i < 200 && child.pid !== undefined && groupAlive(child.pid); i++) await sleep(25);
    if (child.pid !== undefined && groupAlive(child.pid)) process.kill(-child.pid, "SIGKILL");
    if (this.stopping) return;
    await sleep(this.restartDelayMs);
    if (!this.stopping) this.start();
  }

  /**
   * Has this run of the process delivered anything yet (a `delivered` log line since it started)? Tells
   * a worker that is working from one still booting. Reads only what was appended since the last call.
   */
  get delivering(): boolean {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return false;
    if (this.delivered) return true;
    const size = statSync(this.logFile).size;
    if (size <= this.logScanned) return false;
    // Step back a little so a line split across two reads is still seen whole.
    const from = Math.max(this.logStart, this.logScanned - 64);
    const buf = Buffer.alloc(size - from);
    const fd = openSync(this.logFile, "r");
    try {
      readSync(fd, buf, 0, buf.length, from);
    } finally {
      closeSync(fd);
    }
    this.logScanned = size;
    this.delivered = buf.includes('"msg":"delivered"');
    return this.delivered;
  }

  /** SIGKILL the whole group, as a lost host would; it is restarted after the delay. */
  async kill(): Promise<void> {
    const child = this.child;
    if (child?.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const gone = this.exited;
    this.expectExit = true;
    process.kill(-child.pid, "SIGKILL");
    await gone;
  }

  /** SIGTERM the group (the platform's stop) and wait for it, no restart; SIGKILL after `graceMs`. */
  async stop(graceMs = 30_000): Promise<void> {
    this.stopping = true;
    const child = this.child;
    if (child?.pid === undefined) return;
    if (child.exitCode === null && child.signalCode === null) {
      this.expectExit = true;
      process.kill(-child.pid, "SIGTERM");
      const timer = setTimeout(() => groupAlive(child.pid!) && process.kill(-child.pid!, "SIGKILL"), graceMs);
      await this.exited;
      clearTimeout(timer);
    }
    if (groupAlive(child.pid)) process.kill(-child.pid, "SIGKILL");
  }
}

export interface ClusterOptions {
  readonly configFile: string;
  readonly webPort: number;
  readonly workers: number;
  /** Where each process's stdout and stderr go (`web.1.log`, `worker.1.log`, ...). */
  readonly logDir: string;
  readonly logLevel?: string;
  readonly restartDelayMs?: number;
}

/** `web` ×1 and `worker` ×N from the Procfile, on one config file. */
export class Cluster {
  readonly exits: ExitRecord[] = [];
  readonly web: RoleProcess;
  readonly workers: readonly RoleProcess[];

  constructor(opts: ClusterOptions) {
    const env = { SWITCHYARD_CONFIG: opts.configFile, LOG_LEVEL: opts.logLevel ?? "info" };
    const make = (role: string, n: number, extra: Record<string, string>): RoleProcess =>
      new RoleProcess(
        `${role}.${n}`,
        procfileCommand(role),
        { ...env, ...extra },
        join(opts.logDir, `${role}.${n}.log`),
        this.exits,
        opts.restartDelayMs ?? 1000,
      );
    this.web = make("web", 1, { PORT: String(opts.webPort) });
    this.workers = Array.from({ length: opts.workers }, (_, i) => make("worker", i + 1, {}));
  }

  start(): void {
    this.web.start();
    for (const worker of this.workers) worker.start();
  }

  /** Exits nobody asked for (a process that crashed on its own). */
  unexpectedExits(): ExitRecord[] {
    return this.exits.filter((e) => !e.expected);
  }

  async stop(): Promise<void> {
    await Promise.all([this.web, ...this.workers].map((p) => p.stop()));
  }
}

/** Poll `url` until it answers 200; throws after `timeoutMs`. */
export async function waitForHttp(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
    await sleep(200);
  }
}

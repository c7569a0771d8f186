// The processes bench:e2e, bench:timeline and bench:syscalls run: the Procfile's `web` and `worker`
// (whatever command the Procfile holds, or one given on the command line) and the bare baseline's two.
// Each is started in its own process group, so stopping it, or reading the CPU it used, covers the
// wrappers (npx, tsx) and the node process they start.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";

const CLK_TCK = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;

/** The `web` and `worker` commands of the Procfile. */
export function procfileCommands(path = "Procfile"): { web: string; worker: string } {
  const lines = new Map(
    readFileSync(path, "utf8")
      .split("\n")
      .map((l) => /^([a-z]+):\s*(.+)$/.exec(l.trim()))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => [m[1]!, m[2]!]),
  );
  const web = lines.get("web");
  const worker = lines.get("worker");
  if (!web || !worker) throw new Error(`${path} has no web and worker lines`);
  return { web, worker };
}

export interface Proc {
  readonly name: string;
  readonly child: ChildProcess;
  /** CPU (user + system) the whole process group has used so far, ms. */
  cpuMs(): number;
  stop(): Promise<void>;
}

/** How many processes of group `pgid` live, and the CPU ticks they have used. */
function group(pgid: number): { alive: number; ticks: number } {
  let alive = 0;
  let ticks = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // exited meanwhile
    }
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) !== pgid) continue;
    if (fields[0] !== "Z") alive++;
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return { alive, ticks };
}

const live = new Set<Proc>();

/** Stop every process startProc started that has not been stopped (a bench stopped by a signal). */
export async function stopAllProcs(): Promise<void> {
  await Promise.all([...live].map((p) => p.stop()));
}

/** Run `command` with `sh -c` in its own process group; its stderr is shown if it dies early. */
export function startProc(name: string, command: string, env: Record<string, string>, cwd?: string): Proc {
  const child = spawn("sh", ["-c", `exec ${command}`], {
    detached: true,
    ...(cwd ? { cwd } : {}),
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  let stopping = false;
  child.once("exit", (code, signal) => {
    if (!stopping) process.stderr.write(`${name} exited early (${code ?? signal}):\n${stderr}\n`);
  });
  const pgid = child.pid!;
  const proc: Proc = {
    name,
    child,
    cpuMs: () => (group(pgid).ticks * 1000) / CLK_TCK,
    async stop() {
      stopping = true;
      live.delete(proc);
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      process.kill(-pgid, "SIGTERM");
      const timer = setTimeout(() => process.kill(-pgid, "SIGKILL"), 15_000);
      await exited;
      clearTimeout(timer);
      // Let the wrappers' children (and their CPU profiles) finish too.
      for (let i = 0; i < 100 && group(pgid).alive > 0; i++) await new Promise((r) => setTimeout(r, 50));
    },
  };
  live.add(proc);
  return proc;
}

/** Resolve once GET `url` answers 2xx; fail at once if `proc`, which should serve it, has exited. */
export async function waitHttp(url: string, proc?: Proc, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (proc && (proc.child.exitCode !== null || proc.child.signalCode !== null))
      throw new Error(`${proc.name} exited before ${url} answered`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

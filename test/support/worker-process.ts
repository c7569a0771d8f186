// Switchyard worker processes (the Procfile's `worker` entry point) as real children of a test, on the
// test's own config, so a test can kill or freeze one and watch another take over, or run several
// against one shared limit. Each child's JSON log lines are kept for the test to read.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Queue } from "bullmq";
import type { Config, LogLevel } from "../../src/config/schema.ts";
import type { TestGateway } from "./test-gateway.ts";
import { eventually } from "./test-gateway.ts";

export interface LogLine {
  readonly level: number;
  readonly msg: string;
  readonly [key: string]: unknown;
}

export interface WorkerProcess {
  readonly child: ChildProcess;
  /** The pino lines it has written so far. */
  lines(): LogLine[];
  /** Resolves once it has exited (or been killed). */
  readonly exited: Promise<void>;
}

const live = new Set<WorkerProcess>();
const dirs: string[] = [];

/**
 * Start `workers/worker.ts` on `config` (written to a temp file), with `roles` if given (default: the
 * entry point's, dispatch and recovery) and logging at `logLevel`.
 */
export function startWorkerProcess(
  config: Config,
  opts: { roles?: string; logLevel?: LogLevel } = {},
): WorkerProcess {
  const dir = mkdtempSync(join(tmpdir(), "sy-worker-"));
  dirs.push(dir);
  const file = join(dir, "switchyard.json.yaml");
  // JSON is YAML; the config parses back to itself, and log_level in the file is what the child uses.
  writeFileSync(file, JSON.stringify({ ...config, log_level: opts.logLevel ?? "warn" }));
  const env: Record<string, string | undefined> = { ...process.env, SWITCHYARD_CONFIG: file };
  delete env.SWITCHYARD_ROLES;
  if (opts.roles) env.SWITCHYARD_ROLES = opts.roles;
  const child = spawn(process.execPath, ["--import", "tsx", "workers/worker.ts"], {
    env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const proc: WorkerProcess = {
    child,
    exited,
    lines: () =>
      out
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l) as LogLine),
  };
  live.add(proc);
  void exited.then(() => live.delete(proc));
  return proc;
}

/** SIGKILL every worker process still running (a frozen one too), and remove their config files. */
export async function killWorkerProcesses(): Promise<void> {
  const running = [...live];
  for (const p of running) p.child.kill("SIGKILL");
  await Promise.all(running.map((p) => p.exited));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * Wait until `n` workers take work from `queueName` under the gateway's prefix: BullMQ workers, or with
 * the ledger engine the doorbell connections its workers name after the queue.
 */
export async function waitForWorkers(gw: TestGateway, queueName: string, n: number): Promise<void> {
  if (gw.config.dispatch.engine === "ledger") {
    const name = `switchyard-lq:${gw.gateway.keys.queuePrefix(queueName)}:lq:${queueName}:ready`;
    const count = async (): Promise<number> =>
      String(await gw.redis.call("CLIENT", "LIST"))
        .split("\n")
        .filter((line) => line.includes(` name=${name} `)).length;
    await eventually(async () => (await count()) >= n, 30_000, `${n} workers on ${queueName}`);
    return;
  }
  const queue = new Queue(queueName, {
    connection: gw.redis,
    prefix: gw.gateway.keys.queuePrefix(queueName),
  });
  try {
    await eventually(
      async () => (await queue.getWorkersCount()) >= n,
      30_000,
      `${n} workers on ${queueName}`,
    );
  } finally {
    await queue.close();
  }
}

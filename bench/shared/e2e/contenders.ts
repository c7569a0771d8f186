// The contenders of bench:e2e, each as a `web` and a `worker` process against a given Redis and receiver:
// Switchyard as its Procfile runs it (signed hooks verified, deduplicated, persisted, delivered through
// the ledger to one http sink, or to one amqp sink when the receiver consumes RabbitMQ), the bare baseline (baseline-web.ts and the shared baseline worker), and any other Switchyard checkout
// given with --against (the code before a change, say), run by its own Procfile.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { fixedRate } from "./load.ts";
import { type Proc, procfileCommands, startProc, waitHttp } from "./procs.ts";
import type { BaselineWorkerOptions } from "../baseline-worker.ts";
import type { ReceiverHandle } from "../receiver-handle.ts";
import { freePort } from "../../../src/runtime/dev-redis.ts";
import { BASELINE_WORKER } from "../support.ts";

export const SECRET = `whsec_${randomBytes(24).toString("base64")}`;

export interface ContenderOptions {
  readonly tmpDir: string;
  readonly webCmd: string;
  readonly workerCmd: string;
  readonly logLevel: string;
  /** Other checkouts of Switchyard (node_modules installed or linked) to run beside, each by its Procfile. */
  readonly against?: readonly string[];
  /** This tree once more at each of these log levels (`switchyard@warn`): what logging costs, in one run. */
  readonly alsoAtLogLevels?: readonly string[];
  /** Run this tree once more with each of these `dispatch.engine` values (`switchyard[ENGINE]`). */
  readonly alsoEngines?: readonly string[];
  /**
   * Also run the bare pair with its jobs removed on completion (`bare-removing`), as Switchyard removes
   * them: the default bare pair keeps every completed job, which is cheaper per hook but grows Redis
   * without bound.
   */
  readonly bareRemoving?: boolean;
}

export interface Running {
  readonly url: string;
  readonly web: Proc;
  readonly worker: Proc | undefined;
  stop(): Promise<void>;
}

export interface StartOptions {
  readonly redisUrl: string;
  readonly receiver: ReceiverHandle;
  readonly worker: boolean;
  /** Write a CPU profile of each process when it stops, into this directory (by role). */
  readonly profile?: (role: "web" | "worker") => string;
  /** Extra environment of both processes. */
  readonly env?: Record<string, string>;
}

export interface Contender {
  readonly name: string;
  /** Start `web` (and `worker`), ready to take load: a few hooks have gone all the way through. */
  start(opts: StartOptions): Promise<Running>;
}

const PRELOAD = fileURLToPath(new URL("./cpu-prof-preload.mjs", import.meta.url));
const BASELINE_WEB = fileURLToPath(new URL("./baseline-web.ts", import.meta.url));
const BASELINE_PREFIX = "bare";
const BASELINE_QUEUE = "deliver";

/** `text` as one sh word. */
function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

function profileEnv(dir: string | undefined): Record<string, string> {
  if (!dir) return {};
  const nodeOptions = [process.env.NODE_OPTIONS, `--import ${PRELOAD}`].filter(Boolean).join(" ");
  return { NODE_OPTIONS: nodeOptions, CPU_PROF_DIR: dir };
}

interface Commands {
  readonly web: string;
  readonly worker: string;
  readonly cwd?: string;
}

async function startPair(
  name: string,
  commands: Commands,
  env: Record<string, string>,
  opts: StartOptions,
): Promise<Running> {
  const port = await freePort();
  const common = { ...env, REDIS_URL: opts.redisUrl, ...opts.env };
  const proc = (role: "web" | "worker", extra: Record<string, string>): Proc =>
    startProc(
      `${name} ${role}`,
      commands[role],
      { ...common, ...extra, ...profileEnv(opts.profile?.(role)) },
      commands.cwd,
    );
  const web = proc("web", { PORT: String(port) });
  const worker = opts.worker ? proc("worker", {}) : undefined;
  const running: Running = {
    url: `http://127.0.0.1:${port}/webhooks/bench`,
    web,
    worker,
    stop: async () => void (await Promise.all([web.stop(), worker?.stop()])),
  };
  try {
    await waitHttp(`http://127.0.0.1:${port}/healthz`, web);
    const warm = await fixedRate(running.url, SECRET, 200, 1);
    if (warm.non2xx > 0) throw new Error(`${name}: ${warm.non2xx} warm-up hooks refused`);
    if (worker) await opts.receiver.waitFor(warm.sentAt.length, 60_000);
    await opts.receiver.reset();
  } catch (err) {
    await running.stop();
    throw err;
  }
  return running;
}

/** Switchyard's config for the bench: one signed source, one http (or amqp) sink to the receiver. */
function switchyardConfig(tmpDir: string, receiver: ReceiverHandle, engine?: string): string {
  const file = join(tmpDir, `switchyard-${new URL(receiver.url).port}${engine ? `-${engine}` : ""}.json`);
  const { amqp } = receiver;
  const sink = amqp
    ? { type: "amqp", url: amqp.url, exchange: amqp.exchange, routing_key: amqp.routingKey }
    : { type: "http", url: `${receiver.url}/in` };
  writeFileSync(
    file,
    JSON.stringify({
      redis: { prefix: "sy" },
      http: { host: "127.0.0.1" },
      sinks: { out: sink },
      ...(engine ? { dispatch: { engine } } : {}),
      sources: {
        bench: {
          verify: { type: "standard_webhooks", secrets: [SECRET] },
          dedup: "standard_webhooks",
          sinks: ["out"],
        },
      },
    }),
  );
  return file;
}

export function contenders(o: ContenderOptions): Contender[] {
  const switchyard = (
    name: string,
    commands: Commands,
    logLevel = o.logLevel,
    engine?: string,
  ): Contender => ({
    name,
    start: (opts) =>
      startPair(
        name,
        commands,
        { SWITCHYARD_CONFIG: switchyardConfig(o.tmpDir, opts.receiver, engine), LOG_LEVEL: logLevel },
        opts,
      ),
  });
  const node = `${process.execPath} --import tsx`;
  const bare = (name: string, env: Record<string, string>): Contender => ({
    name,
    start: (opts) => {
      const worker: BaselineWorkerOptions = {
        redisUrl: opts.redisUrl,
        prefix: BASELINE_PREFIX,
        queue: BASELINE_QUEUE,
        concurrency: 64,
        ...(opts.receiver.amqp ? { amqp: opts.receiver.amqp } : { url: `${opts.receiver.url}/in` }),
      };
      return startPair(
        name,
        {
          web: `${node} ${BASELINE_WEB}`,
          worker: `${node} ${BASELINE_WORKER} ${shellQuote(JSON.stringify(worker))}`,
        },
        { BASELINE_PREFIX, BASELINE_QUEUE, ...env },
        opts,
      );
    },
  });
  return [
    switchyard("switchyard", { web: o.webCmd, worker: o.workerCmd }),
    bare("baseline", {}),
    ...(o.bareRemoving ? [bare("bare-removing", { BASELINE_REMOVE_ON_COMPLETE: "1" })] : []),
    ...(o.alsoAtLogLevels ?? []).map((level) =>
      switchyard(`switchyard@${level}`, { web: o.webCmd, worker: o.workerCmd }, level),
    ),
    ...(o.alsoEngines ?? []).map((engine) =>
      switchyard(`switchyard[${engine}]`, { web: o.webCmd, worker: o.workerCmd }, o.logLevel, engine),
    ),
    ...(o.against ?? []).map((dir) => {
      const commands = procfileCommands(join(dir, "Procfile"));
      // A checkout whose Procfile runs dist/ but that was never built is built once here.
      if (/dist\//.test(commands.web) && !existsSync(join(dir, "dist"))) {
        execFileSync("npm", ["run", "build"], { cwd: dir, stdio: "inherit" });
      }
      return switchyard(basename(resolve(dir)), { ...commands, cwd: resolve(dir) });
    }),
  ];
}

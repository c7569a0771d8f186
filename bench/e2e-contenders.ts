// The two contenders of bench:e2e, each as a `web` and a `worker` process against the same private Redis
// and the same receiver: Switchyard as its Procfile runs it (signed hooks verified, deduplicated,
// persisted, delivered through the ledger to one http sink), and the bare baseline (e2e-baseline.ts).
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type Proc, freePort, procfileCommands, startProc, waitHttp } from "./e2e-procs.ts";
import { fixedRate } from "./e2e-load.ts";
import type { ReceiverHandle } from "./e2e-receiver-handle.ts";

export const SECRET = `whsec_${randomBytes(24).toString("base64")}`;

export interface ContenderOptions {
  readonly redisUrl: string;
  readonly receiver: ReceiverHandle;
  readonly tmpDir: string;
  readonly webCmd: string;
  readonly workerCmd: string;
  readonly logLevel: string;
  /** Other checkouts of Switchyard (node_modules installed or linked) to run beside, each by its Procfile. */
  readonly against?: readonly string[];
}

export interface Running {
  readonly url: string;
  readonly web: Proc;
  readonly worker: Proc | undefined;
  stop(): Promise<void>;
}

export interface Contender {
  readonly name: string;
  /** Start `web` (and `worker`), ready to take load: a few hooks have gone all the way through. */
  start(opts: {
    worker: boolean;
    /** Write a CPU profile of each process when it stops, into this directory (by role). */
    profile?: (role: "web" | "worker") => string;
    /** Extra environment of both processes. */
    env?: Record<string, string>;
  }): Promise<Running>;
}

const PRELOAD = fileURLToPath(new URL("./cpu-prof-preload.mjs", import.meta.url));

function profileEnv(dir: string | undefined): Record<string, string> {
  if (!dir) return {};
  const nodeOptions = [process.env.NODE_OPTIONS, `--import ${PRELOAD}`].filter(Boolean).join(" ");
  return { NODE_OPTIONS: nodeOptions, CPU_PROF_DIR: dir };
}

async function startPair(
  name: string,
  commands: { web: string; worker: string; cwd?: string },
  env: Record<string, string>,
  opts: Parameters<Contender["start"]>[0],
  receiver: ReceiverHandle,
): Promise<Running> {
  const port = await freePort();
  env = { ...env, ...opts.env };
  const web = startProc(
    `${name} web`,
    commands.web,
    { ...env, PORT: String(port), ...profileEnv(opts.profile?.("web")) },
    commands.cwd,
  );
  const worker = opts.worker
    ? startProc(
        `${name} worker`,
        commands.worker,
        { ...env, ...profileEnv(opts.profile?.("worker")) },
        commands.cwd,
      )
    : undefined;
  const running: Running = {
    url: `http://127.0.0.1:${port}/webhooks/bench`,
    web,
    worker,
    stop: async () => void (await Promise.all([web.stop(), worker?.stop()])),
  };
  try {
    await waitHttp(`http://127.0.0.1:${port}/healthz`);
    const warm = await fixedRate(running.url, SECRET, 200, 1);
    if (warm.non2xx > 0) throw new Error(`${name}: ${warm.non2xx} warm-up hooks refused`);
    if (worker) await receiver.waitFor(warm.sentAt.length, 60_000);
    await receiver.reset();
  } catch (err) {
    await running.stop();
    throw err;
  }
  return running;
}

export function contenders(o: ContenderOptions): Contender[] {
  const configFile = join(o.tmpDir, "switchyard.json");
  writeFileSync(
    configFile,
    JSON.stringify({
      redis: { prefix: "sy" },
      http: { host: "127.0.0.1" },
      sinks: { out: { type: "http", url: `${o.receiver.url}/in` } },
      sources: {
        bench: {
          verify: { type: "standard_webhooks", secrets: [SECRET] },
          dedup: "standard_webhooks",
          sinks: ["out"],
        },
      },
    }),
  );
  const common = { REDIS_URL: o.redisUrl };
  const switchyardEnv = { ...common, SWITCHYARD_CONFIG: configFile, LOG_LEVEL: o.logLevel };
  const others: Contender[] = (o.against ?? []).map((dir) => {
    const name = basename(resolve(dir));
    const commands = { ...procfileCommands(join(dir, "Procfile")), cwd: resolve(dir) };
    return { name, start: (opts) => startPair(name, commands, switchyardEnv, opts, o.receiver) };
  });
  return [
    {
      name: "switchyard",
      start: (opts) =>
        startPair("switchyard", { web: o.webCmd, worker: o.workerCmd }, switchyardEnv, opts, o.receiver),
    },
    {
      name: "baseline",
      start: (opts) =>
        startPair(
          "baseline",
          {
            web: `${process.execPath} --import tsx bench/e2e-baseline.ts web`,
            worker: `${process.execPath} --import tsx bench/e2e-baseline.ts worker`,
          },
          { ...common, RECEIVER_URL: `${o.receiver.url}/in`, BASELINE_PREFIX: "bare" },
          opts,
          o.receiver,
        ),
    },
    ...others,
  ];
}

// Helpers of the ledger regression tests. They touch the gateway only through its public surface (the
// admin API, the receiver's requests, worker processes, a private redis-server) and its delivery queue:
// a BullMQ queue found by probing both key layouts, so the same tests run against the code before the
// ledger, or the ledger engine's queue (`dispatch.engine: ledger`).
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Queue } from "bullmq";
import type { RedisClient } from "../../src/store/redis-client.ts";
import type { Config } from "../../src/config/schema.ts";
import { sinkDeliveryId } from "../../src/domain/hook.ts";
import type { HookId } from "../../src/domain/ids.ts";
import { LedgerQueues } from "../../src/queue/ledger/ledger-queues.ts";
import { QueuePlan } from "../../src/queue/queue-plan.ts";
import { onLedgerEngine, queueNameOf } from "../support/queued.ts";
import type { Receiver } from "../support/receiver.ts";
import type { TestGateway } from "../support/test-gateway.ts";
import { admin } from "./admin-fixtures.ts";

export { PersistentRedis } from "../support/persistent-redis.ts";

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A sink's delivery as `GET /v1/hooks/:id` shows it (`undefined`: the hook answered 404). */
export interface SinkView {
  readonly state: string;
  readonly attempts: number;
  readonly next_attempt_at?: string;
  readonly last_error?: string;
  readonly replay_id?: string;
}

export async function sinkView(gw: TestGateway, hookId: string, sink: string): Promise<SinkView | undefined> {
  const res = await admin(gw, "GET", `/v1/hooks/${hookId}`);
  if (res.status === 404) return undefined;
  if (res.status !== 200) throw new Error(`GET /v1/hooks/${hookId}: ${res.status}`);
  return res.json.sinks?.[sink] as SinkView | undefined;
}

/**
 * Wait until the hook's delivery to `sink` is `state`; on timeout, say what was seen last. An answer
 * other than 200/404 (Redis away a moment) is noted and polled past.
 */
export async function waitForSink(
  gw: TestGateway,
  hookId: string,
  sink: string,
  state: string,
  timeoutMs: number,
): Promise<SinkView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let seen: string;
    try {
      const view = await sinkView(gw, hookId, sink);
      if (view?.state === state) return view;
      seen = view ? JSON.stringify(view) : "404 (no such hook)";
    } catch (err) {
      seen = (err as Error).message;
    }
    if (Date.now() > deadline)
      throw new Error(`${hookId} → ${sink} not ${state} after ${timeoutMs} ms; last seen: ${seen}`);
    await sleep(50);
  }
}

/** Hook ids of every entry `GET /v1/dlq` lists (one page of up to 1000). */
export async function dlqHookIds(gw: TestGateway): Promise<string[]> {
  const res = await admin(gw, "GET", "/v1/dlq?limit=1000");
  if (res.status !== 200) throw new Error(`GET /v1/dlq: ${res.status}`);
  return (res.json.data as { hook_id: string }[]).map((e) => e.hook_id).sort();
}

/** Requests the receiver got per hook id (`x-switchyard-id`). */
export function requestsPerHook(rx: Receiver): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of rx.requests) {
    const id = String(r.headers["x-switchyard-id"]);
    counts[id] = (counts[id] ?? 0) + 1;
  }
  return counts;
}

/** Wait until the receiver has had no new request for `quietMs` (at most `maxMs`). */
export async function receiverQuiet(rx: Receiver, quietMs: number, maxMs: number): Promise<void> {
  const deadline = Date.now() + maxMs;
  let seen = rx.requests.length;
  let since = Date.now();
  while (Date.now() < deadline) {
    await sleep(50);
    if (rx.requests.length !== seen) {
      seen = rx.requests.length;
      since = Date.now();
    } else if (Date.now() - since >= quietMs) return;
  }
}

/** `config` on the same Redis prefix as `other` (two gateways of one deployment). */
export function onPrefixOf(config: Config, other: Config): Config {
  return { ...config, redis: { ...config.redis, prefix: other.redis.prefix } };
}

/**
 * The BullMQ queue of `sink` under `prefix`, whichever key layout the code uses: one hash tag per
 * queue (`{prefix:sink-x}`, the ledger) or one for everything (`{prefix}`, before it).
 */
export async function sinkQueue(redis: RedisClient, prefix: string, sink: string): Promise<Queue> {
  const name = `sink-${sink}`;
  const perQueue = `{${prefix}:${name}}`;
  const queuePrefix = (await redis.exists(`${perQueue}:${name}:meta`)) === 1 ? perQueue : `{${prefix}}`;
  return new Queue(name, { connection: redis, prefix: queuePrefix });
}

/**
 * Take a hook's delivery to `sink` off its queue behind the gateway's back, as soon as it waits there
 * (not while a worker holds it): its BullMQ job removed as Bull Board's "remove" does, or its ledger
 * queue entry taken off (what a lost queue write leaves). Throws when it never waits within `timeoutMs`.
 */
export async function unqueueDelivery(
  gw: TestGateway,
  hookId: string,
  sink: string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const id = sinkDeliveryId(hookId as HookId, sink);
  let remove: () => Promise<boolean>;
  let close = async (): Promise<void> => {};
  if (onLedgerEngine(gw)) {
    const plan = QueuePlan.of(gw.config);
    const queues = new LedgerQueues(gw.redis, gw.gateway.keys, plan, gw.config.dispatch.lock_ms);
    const queue = queues.queue(queueNameOf(gw, { kind: "sink", name: sink }, id));
    remove = async () => (await queue.discard([{ id, data: { p: hookId } }])) === 1;
  } else {
    const queue = await sinkQueue(gw.redis, gw.config.redis.prefix, sink);
    close = () => queue.close();
    remove = async () => {
      const jobs = await queue.getJobs(["delayed", "wait"]);
      const job = jobs.find((j) => j.data.p === hookId || j.data.hookId === hookId);
      return job?.id !== undefined && (await queue.remove(job.id).catch(() => 0)) === 1;
    };
  }
  try {
    while (!(await remove())) {
      if (Date.now() > deadline) throw new Error(`${id} never waited on its queue within ${timeoutMs} ms`);
      await sleep(50);
    }
  } finally {
    await close();
  }
}

/** A config file (JSON is YAML) in a temp dir, for worker processes. */
export function writeConfigFile(content: Record<string, unknown>): { file: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "sy-regress-"));
  const file = join(dir, "switchyard.json");
  writeFileSync(file, JSON.stringify(content, null, 2));
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A `workers/worker.ts` process whose JSON log lines the test can read. */
export interface WorkerProcess {
  readonly child: ChildProcess;
  readonly lines: Record<string, unknown>[];
  readonly exited: Promise<void>;
}

/** Start one on `configFile`: dispatch and recovery, or `roles` (SWITCHYARD_ROLES) when given. */
export function startWorkerProcess(configFile: string, logLevel = "warn", roles?: string): WorkerProcess {
  const env: Record<string, string | undefined> = { ...process.env, SWITCHYARD_CONFIG: configFile };
  env.LOG_LEVEL = logLevel;
  delete env.SWITCHYARD_ROLES;
  if (roles) env.SWITCHYARD_ROLES = roles;
  const child = spawn(process.execPath, ["--import", "tsx", "workers/worker.ts"], {
    env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines: Record<string, unknown>[] = [];
  let rest = "";
  child.stdout?.setEncoding("utf8");
  child.stdout?.on("data", (chunk: string) => {
    const parts = (rest + chunk).split("\n");
    rest = parts.pop() ?? "";
    for (const line of parts) {
      try {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        // not a log line
      }
    }
  });
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
  return { child, lines, exited };
}

/**
 * Which of `workers` holds the TCP connection a request came in on (`remotePort`, to the receiver at
 * `receiverPort`): the socket's inode from /proc/net/tcp, then the process whose fds include it.
 * Linux only; undefined when none does (the connection is gone).
 */
export function workerOfRequest(
  workers: readonly WorkerProcess[],
  remotePort: number,
  receiverPort: number,
): WorkerProcess | undefined {
  const hex = (port: number): string => port.toString(16).toUpperCase().padStart(4, "0");
  let inode: string | undefined;
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text = "";
    try {
      text = readFileSync(table, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const cols = line.trim().split(/\s+/);
      const [local, remote] = [cols[1], cols[2]];
      if (local?.endsWith(`:${hex(remotePort)}`) && remote?.endsWith(`:${hex(receiverPort)}`))
        inode = cols[9];
    }
  }
  if (!inode || inode === "0") return undefined;
  const socket = `socket:[${inode}]`;
  return workers.find((w) => {
    const dir = `/proc/${w.child.pid}/fd`;
    try {
      return readdirSync(dir).some((fd) => {
        try {
          return readlinkSync(join(dir, fd)) === socket;
        } catch {
          return false;
        }
      });
    } catch {
      return false;
    }
  });
}

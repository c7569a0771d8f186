// Regressions seen only with real worker processes: a worker that was frozen past its lease cannot
// overwrite what the worker that took over recorded (state writes are fenced), and a delivery whose
// workers keep stopping mid-attempt is not failed by BullMQ's stall count: only its retry budget ends
// it. Public behaviour only (HTTP ingest and admin API of an api process, `workers/worker.ts`
// processes, the receiver, the job's BullMQ state), so it also runs on the old code. On the ledger
// engine a frozen worker's row comes back through recovery (its lease lapsed), not a stalled check.
import type { Queue } from "bullmq";
import { afterEach, expect, it } from "vitest";
import type { Config } from "../../src/config/schema.ts";
import { QueuePlan } from "../../src/queue/queue-plan.ts";
import { sendHook } from "../support/hooks.ts";
import { type Receiver, type Reply, startReceiver } from "../support/receiver.ts";
import { REDIS_URL, type TestGateway, startTestGateway, testConfig } from "../support/test-gateway.ts";
import { waitForWorkers } from "../support/worker-process.ts";
import {
  type WorkerProcess,
  dlqHookIds,
  sinkQueue,
  sinkView,
  sleep,
  startWorkerProcess,
  waitForSink,
  workerOfRequest,
  writeConfigFile,
} from "./ledger-regressions-fixtures.ts";

let api: TestGateway | undefined;
let rx: Receiver | undefined;
let queue: Queue | undefined;
const workers: WorkerProcess[] = [];
const cleanups: (() => void)[] = [];
afterEach(async () => {
  for (const w of workers.splice(0)) {
    if (w.child.exitCode === null && w.child.signalCode === null) {
      w.child.kill("SIGCONT");
      w.child.kill("SIGKILL");
    }
    await w.exited;
  }
  await queue?.close();
  queue = undefined;
  await api?.stop();
  api = undefined;
  await rx?.close();
  rx = undefined;
  for (const c of cleanups.splice(0)) c();
});

/**
 * An api process in this test and the config file its worker processes read: one source `src`
 * delivering to the http sink `out` at a receiver answering `script`, then `fallback`.
 */
async function deployment(
  script: Reply[],
  fallback: Reply,
  dispatch: Record<string, unknown>,
  sinkTimeoutMs: number,
): Promise<{ file: string; config: Config }> {
  rx = await startReceiver({ script, fallback });
  const shape = {
    dispatch: {
      ...dispatch,
      retry: { base_ms: 20, max_ms: 200, max_attempts: 50, max_elapsed_ms: 600_000 },
      breaker: { failures: 1000, open_ms: 1000, max_open_ms: 1000 },
    },
    // The ledger engine takes a frozen worker's row back when recovery finds its lease lapsed: tick often
    // (in the api process, which is never frozen: a worker frozen mid-tick would hold the tick lock).
    recovery: { interval_ms: 200 },
    sinks: { out: { type: "http", url: `${rx.url}/in`, timeout_ms: sinkTimeoutMs } },
    sources: { src: { verify: { type: "none" }, sinks: ["out"] } },
  };
  const config = testConfig(shape);
  const { file, remove } = writeConfigFile({
    redis: { url: REDIS_URL, prefix: config.redis.prefix },
    ...shape,
    // The worker processes run the engine this test runs on (TEST_DISPATCH_ENGINE, or the test's own).
    dispatch: { ...shape.dispatch, engine: config.dispatch.engine },
  });
  cleanups.push(remove);
  api = await startTestGateway(config, { roles: ["api", "recovery"] });
  return { file, config };
}

/** A worker process of the deployment: dispatch only (recovery runs in the api process). */
function worker(file: string): WorkerProcess {
  const w = startWorkerProcess(file, "warn", "dispatch");
  workers.push(w);
  return w;
}

it("regression: state writes are not fenced (a worker frozen past its lease overwrites delivered)", async () => {
  const { file } = await deployment(["hang"], 200, { lock_ms: 1500, attempt_timeout_ms: 4000 }, 4000);
  const a = worker(file);
  const id = await sendHook(api!, "src", '{"fenced":true}');
  const [first] = await rx!.waitForRequests(1, 20_000);
  // A is mid-attempt (the receiver hangs): freeze it past its lock and lease.
  a.child.kill("SIGSTOP");
  // B takes it over (the job found stalled, or the row queued again by recovery once the lease lapsed).
  worker(file);
  await waitForSink(api!, id, "out", "delivered", 20_000);
  // Let A's attempt time out while it is frozen. When it resumes, its lease's deadline (earlier than the
  // timeout) fires first: the attempt is cancelled (LeaseGuard) and A hands the row back, a write that
  // is refused like any other from a lapsed lease.
  await sleep(Math.max(0, first!.receivedAt + 4500 - Date.now()));
  a.child.kill("SIGCONT");

  // Watch the row for 4 s, and on until A's refused write shows (a busy machine resumes A slowly).
  const seen = new Set<string>();
  const refused = () =>
    a.lines.filter((l) => l.msg === "outcome refused: the lease was lost to another worker");
  const until = Date.now() + 4000;
  const deadline = Date.now() + 15_000;
  while (Date.now() < until || (refused().length === 0 && Date.now() < deadline)) {
    const v = await sinkView(api!, id, "out");
    seen.add(v ? `${v.state}, ${v.attempts} attempts` : "404");
    await sleep(100);
  }
  expect({
    states: [...seen],
    dlq: await dlqHookIds(api!),
    requests: rx!.requests.length,
    refusedWrites: refused().map((l) => l.outcome),
  }).toEqual({ states: ["delivered, 2 attempts"], dlq: [], requests: 2, refusedWrites: ["release"] });
}, 60_000);

/**
 * The first six attempts hang, and every worker holding the delivery freezes (SIGSTOP) past its 1 s
 * lock and lease, as if it had died: the other worker takes it back each time (BullMQ's stalled check,
 * or recovery's look at a lapsed lease on the ledger engine). Two processes take turns (freezing stalls
 * a delivery as a crash does, without booting a process per stall): with concurrency 1, a frozen worker
 * is not waiting for work, and once resumed its hung attempt is cancelled and it is free again. Six
 * stalls are within the retry budget (50 attempts): the seventh attempt is answered and the delivery is
 * delivered. Nothing but that budget may end it (BullMQ's own stall count, its limit was 5 over the
 * job's whole life, must not fail it).
 */
async function sixStalls(engine: "bullmq" | "ledger"): Promise<void> {
  const { file, config } = await deployment(
    ["hang", "hang", "hang", "hang", "hang", "hang"],
    200,
    { engine, lock_ms: 1000, attempt_timeout_ms: 3000, concurrency: 1 },
    3000,
  );
  const pair: WorkerProcess[] = [worker(file), worker(file)];
  // Both waiting for work before the hook arrives (a ledger worker busy from its first pop would only
  // show once its attempt ended).
  for (const name of QueuePlan.of(config).sinkQueues("out")) await waitForWorkers(api!, name, 2);
  const id = await sendHook(api!, "src", '{"stalls":6}');
  await rx!.waitForRequests(1, 20_000);
  let jobId: string | undefined;
  if (engine === "bullmq") {
    queue = await sinkQueue(api!.redis, config.redis.prefix, "out");
    const job = (await queue.getJobs(["active"])).find((j) => j.data.p === id || j.data.hookId === id);
    if (!job?.id) throw new Error(`no active job of ${id}`);
    jobId = job.id;
  }

  for (let stall = 1; stall <= 6; stall++) {
    const request = rx!.requests[stall - 1]!;
    const holder = workerOfRequest(pair, request.remotePort ?? 0, rx!.port);
    if (!holder) throw new Error(`no worker process holds the connection of request ${stall}`);
    holder.child.kill("SIGSTOP");
    if (stall < 6) {
      await rx!.waitForRequests(stall + 1, 10_000); // the other one took it back
      holder.child.kill("SIGCONT");
    }
  }

  // After the sixth stall the other worker takes it again and its attempt is answered.
  await waitForSink(api!, id, "out", "delivered", 15_000).catch(() => undefined);
  const view = await sinkView(api!, id, "out");
  expect({
    requests: rx!.requests.length,
    state: view?.state,
    attempts: view?.attempts,
    dlq: await dlqHookIds(api!),
    // BullMQ: the job is gone (completed and removed), not failed.
    ...(jobId !== undefined && queue ? { job: await queue.getJobState(jobId) } : {}),
  }).toEqual({
    requests: 7,
    state: "delivered",
    attempts: 7,
    dlq: [],
    ...(jobId !== undefined ? { job: "unknown" } : {}),
  });
}

it("regression: six stalls of a healthy delivery kill it (BullMQ's stall count decides deaths)", async () => {
  // BullMQ's stalled-job check and its stall count are under test.
  await sixStalls("bullmq");
}, 60_000);

it("six workers stopping mid-attempt on the ledger engine: recovery takes the row back each time, only the retry budget ends it", async () => {
  await sixStalls("ledger");
}, 60_000);

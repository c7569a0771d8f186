// What the chaos run breaks, one fault a small object behind one interface, and the schedule that fires
// them while traffic flows. A new failure is one more `Fault`: nothing else in the harness changes (the
// Redis Cluster master failover was added that way).
import { closeConnection, connectionPids } from "../rabbit.ts";
import type { PersistentRedis } from "../persistent-redis.ts";
import type { TestCluster } from "../redis-cluster.ts";
import { type Cluster, waitForHttp } from "./processes.ts";
import type { ChaosReceiver, ReceiverMode } from "./receiver.ts";

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * How long a killed process may take to work again before the fault counts as failed. Generous: on a
 * shared 2-core machine under load, booting a worker with tsx has taken 45 s.
 */
const RECOVER_MS = 180_000;

export interface Fault {
  /** Short, stable: the run's summary counts injections by it. */
  readonly name: string;
  /** Break the thing and resolve once the fault is over (restarted, back up); returns what was done. */
  inject(): Promise<string>;
}

/**
 * SIGKILL a random worker that is delivering (not one still booting) and wait until the supervisor's
 * restart of it delivers again, so kills land mid-work and the next one comes `everyMs` after the
 * cluster is whole again rather than piling onto processes that are still starting.
 */
export function workerKill(
  cluster: Cluster,
  random: () => number = Math.random,
  waitMs = 60_000,
  recoverMs = RECOVER_MS,
): Fault {
  return {
    name: "worker SIGKILL",
    async inject() {
      const deadline = Date.now() + waitMs;
      let working = cluster.workers.filter((w) => w.delivering);
      while (working.length === 0) {
        if (Date.now() > deadline) throw new Error(`no worker delivered within ${waitMs} ms`);
        await sleep(250);
        working = cluster.workers.filter((w) => w.delivering);
      }
      const worker = working[Math.floor(random() * working.length)]!;
      const pid = worker.pid;
      await worker.kill();
      const killedAt = Date.now();
      while (!worker.delivering) {
        if (Date.now() - killedAt > recoverMs)
          throw new Error(`${worker.name} not delivering ${recoverMs} ms after it was killed`);
        await sleep(250);
      }
      return `${worker.name} (pid ${pid}) killed; restarted and delivering again after ${Date.now() - killedAt} ms`;
    },
  };
}

/**
 * SIGKILL the web process mid-ingest (a crash between persisting a hook and enqueueing its jobs leaves
 * rows only recovery finds); resolves once its restart answers /readyz again.
 */
export function webKill(cluster: Cluster, url: string, recoverMs = RECOVER_MS): Fault {
  return {
    name: "web SIGKILL",
    async inject() {
      const pid = cluster.web.pid;
      await cluster.web.kill();
      const killedAt = Date.now();
      await waitForHttp(`${url}/readyz`, recoverMs);
      return `web (pid ${pid}) killed; ready again after ${Date.now() - killedAt} ms`;
    },
  };
}

/**
 * SIGKILL redis-server, leave it down `downMs`, start it on the same port and AOF; reports how long it
 * took to answer commands again (it answers LOADING while it replays the AOF).
 */
export function redisCrash(redis: PersistentRedis, downMs: number): Fault {
  return {
    name: "Redis crash",
    async inject() {
      await redis.kill();
      await sleep(downMs);
      const t = Date.now();
      await redis.restart();
      const listening = Date.now() - t;
      await redis.waitUntilLoaded();
      return `down ${downMs} ms; listening again after ${listening} ms, AOF loaded after ${Date.now() - t} ms`;
    },
  };
}

/** Poll `check` every 100 ms until it holds; throws after `timeoutMs`. */
async function until(what: string, timeoutMs: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(100);
  }
}

/**
 * SIGKILL a random master of the test cluster, wait until its replica is promoted (the cluster serves
 * every slot again), then start the killed node again and wait until it is that new master's replica
 * and in sync. It starts only on a healthy cluster: killing a master whose replica is still syncing
 * would lose what no replica had, a second fault rather than a failover. The killed node comes back
 * empty (the test cluster keeps nothing on disk) and resyncs as a replica, so only what its replica
 * held survives: what `wait_replicas: 1` promises.
 */
export function masterFailover(
  cluster: TestCluster,
  random: () => number = Math.random,
  recoverMs = 60_000,
): Fault {
  return {
    name: "Redis master failover",
    async inject() {
      await cluster.waitHealthy(recoverMs);
      const topology = await cluster.topology();
      const masters = topology.filter((n) => n.role === "master");
      const victim = masters[Math.floor(random() * masters.length)]!;
      const replica = topology.find((n) => n.role === "replica" && n.masterPort === victim.port);
      if (replica === undefined) throw new Error(`master ${victim.port} has no replica to promote`);
      cluster.kill(victim.port);
      const killedAt = Date.now();
      await until(`replica ${replica.port} promoted`, recoverMs, async () => {
        const now = await cluster.masters();
        const ports = now.map((m) => m.port);
        return now.length === masters.length && ports.includes(replica.port) && !ports.includes(victim.port);
      });
      const promoted = Date.now() - killedAt;
      await cluster.restart(victim.port);
      const restartedAt = Date.now();
      await until(`${victim.port} to rejoin as the replica of ${replica.port}`, recoverMs, async () =>
        (await cluster.topology()).some((n) => n.port === victim.port && n.masterPort === replica.port),
      );
      await cluster.waitHealthy(recoverMs);
      return (
        `master ${victim.port} killed; replica ${replica.port} promoted after ${promoted} ms; ` +
        `${victim.port} restarted, its replica in sync after ${Date.now() - restartedAt} ms`
      );
    },
  };
}

/**
 * Close, from the broker side, every connection of the AMQP sink (`connection_name` switchyard/<sink>).
 * A sink connects on first use and a restarted worker has not yet, so this waits (up to `waitMs`) for
 * at least one to be open; `rabbitmqctl` itself takes a few seconds per call.
 */
export function amqpConnectionKill(sinkName: string, waitMs = 60_000): Fault {
  return {
    name: "RabbitMQ connection kill",
    async inject() {
      const deadline = Date.now() + waitMs;
      let pids = await connectionPids(`switchyard/${sinkName}`);
      while (pids.length === 0 && Date.now() < deadline) {
        await sleep(500);
        pids = await connectionPids(`switchyard/${sinkName}`);
      }
      if (pids.length === 0) throw new Error(`no connection of sink ${sinkName} open within ${waitMs} ms`);
      await Promise.all(pids.map((pid) => closeConnection(pid, "chaos: connection killed")));
      return `${pids.length} connection(s) closed`;
    },
  };
}

/**
 * For `durationMs` the receiver flaps: each request is answered 500, left hanging, answered 429 with
 * Retry-After, or (now and then) 200, at random, so breakers trip and close and every kind of answer
 * is met mid-stream.
 */
export function receiverFlap(
  receiver: ChaosReceiver,
  durationMs: number,
  random: () => number = Math.random,
): Fault {
  const mix: readonly [ReceiverMode, number][] = [
    ["fail", 0.35],
    ["hang", 0.15],
    ["throttle", 0.3],
    ["ok", 0.2],
  ];
  const pick = (): ReceiverMode => {
    let r = random();
    for (const [mode, p] of mix) if ((r -= p) < 0) return mode;
    return "ok";
  };
  return {
    name: "receiver flap",
    async inject() {
      receiver.answerWith(pick);
      try {
        await sleep(durationMs);
      } finally {
        receiver.answerWith(() => "ok");
      }
      return `500 / hang / 429 Retry-After / 200 at random for ${durationMs} ms`;
    },
  };
}

/** When a fault fires: once at `atMs` after the start, then every `everyMs` (± a third, at random). */
export interface Scheduled {
  readonly fault: Fault;
  readonly atMs: number;
  readonly everyMs?: number;
}

export interface Injection {
  readonly fault: string;
  readonly atMs: number;
  readonly tookMs: number;
  readonly detail: string;
  readonly error?: string;
}

/**
 * Fire every scheduled fault until `durationMs` has passed; the injections of one fault never overlap,
 * those of different faults may. Resolves, with every injection, once the last one is over.
 */
export async function runFaults(
  schedule: readonly Scheduled[],
  durationMs: number,
  onInjection: (i: Injection) => void = () => undefined,
  random: () => number = Math.random,
): Promise<Injection[]> {
  const t0 = Date.now();
  const injections: Injection[] = [];
  const loop = async ({ fault, atMs, everyMs }: Scheduled): Promise<void> => {
    let next = atMs;
    while (next < durationMs) {
      await sleep(Math.max(0, next - (Date.now() - t0)));
      const start = Date.now() - t0;
      let injection: Injection;
      try {
        const detail = await fault.inject();
        injection = { fault: fault.name, atMs: start, tookMs: Date.now() - t0 - start, detail };
      } catch (err) {
        const error = (err as Error).message;
        injection = { fault: fault.name, atMs: start, tookMs: Date.now() - t0 - start, detail: "", error };
      }
      injections.push(injection);
      onInjection(injection);
      if (everyMs === undefined) return;
      next = Math.max(next + everyMs * (2 / 3 + (2 / 3) * random()), Date.now() - t0);
    }
  };
  await Promise.all(schedule.map(loop));
  await sleep(durationMs - (Date.now() - t0));
  return injections;
}

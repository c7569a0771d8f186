// Redis connections by role, to one Redis (`redis.url`) or to a Redis Cluster (`redis.cluster.nodes`).
// The command connection fails fast when Redis is away (ingest answers 503 and the provider retries);
// worker connections wait and reconnect forever, as BullMQ requires. On a cluster the same options
// apply to the connection of every node, and BullMQ duplicates the client for its blocking commands.
import { Cluster, type ClusterNode, type ClusterOptions, Redis, type RedisOptions } from "ioredis";
import type { RedisConfig } from "../config/redis-schema.ts";
import type { RedisClient } from "../store/redis-client.ts";
import { coalesceWrites } from "./coalesce-redis-writes.ts";

/** Where to connect: the parts of `redis` config that say so. */
export interface RedisTarget {
  readonly url: RedisConfig["url"];
  /** Only the seeds matter to a connection. */
  readonly cluster?: { readonly nodes: readonly string[] } | undefined;
}

// Reconnect quickly but without hammering a Redis that is down.
const backoff = (times: number): number => Math.min(100 * times, 2000);

const COMMON: RedisOptions = { lazyConnect: true, retryStrategy: backoff };

const COMMAND: RedisOptions = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 1,
  commandTimeout: 5000,
};

const WORKER: RedisOptions = { maxRetriesPerRequest: null, enableReadyCheck: false };

/** A seed URL as ioredis Cluster takes it, and the credentials and TLS every node connection uses. */
function seedOf(url: string): { host: string; port: number; auth: RedisOptions } {
  const u = new URL(url);
  const auth: RedisOptions = {};
  if (u.username) auth.username = decodeURIComponent(u.username);
  if (u.password) auth.password = decodeURIComponent(u.password);
  if (u.protocol === "rediss:") auth.tls = {};
  return { host: u.hostname || "127.0.0.1", port: Number(u.port || 6379), auth };
}

/** A cluster's offline queue is its own option (ioredis always queues on the node connections). */
function withoutOfflineQueue(options: RedisOptions): Omit<RedisOptions, "enableOfflineQueue"> {
  const { enableOfflineQueue: _cluster, ...rest } = options;
  return rest;
}

/**
 * An ioredis Cluster whose connect() settles. ioredis's own never does when its first ready check finds
 * cluster_state:fail, as for the seconds a master fails over: it stops listening for the close it then
 * provokes and reconnects on a promise of its own, leaving the caller's pending though the client is
 * ready seconds later. A worker started during a failover hung at boot that way (and BullMQ calls
 * connect() on its connections). Here connect() also resolves on "ready" and fails on "end"; the
 * duplicates BullMQ makes for its blocking connections are of this class too.
 */
export class SettlingCluster extends Cluster {
  /** One wait for "ready" shared by the caller's connect() and ioredis's reconnects. */
  private ready: Promise<void> | undefined;

  constructor(
    private readonly seeds: ClusterNode[],
    options: ClusterOptions,
  ) {
    super(seeds, options);
  }

  override connect(): Promise<void> {
    const attempt = super.connect();
    return Promise.race([attempt, this.whenReady()]);
  }

  override duplicate(nodes: ClusterNode[] = [], options: ClusterOptions = {}): SettlingCluster {
    return new SettlingCluster(nodes.length > 0 ? nodes : this.seeds.slice(), {
      ...this.options,
      ...options,
    });
  }

  private whenReady(): Promise<void> {
    if (this.ready) return this.ready;
    const ready = new Promise<void>((resolve, reject) => {
      const settle = (err?: Error): void => {
        this.off("ready", onReady);
        this.off("end", onEnd);
        this.ready = undefined;
        if (err) reject(err);
        else resolve();
      };
      const onReady = (): void => settle();
      const onEnd = (): void => settle(new Error("Connection is closed."));
      this.once("ready", onReady);
      this.once("end", onEnd);
    });
    // Nobody may be waiting when it fails (the attempt settled first): not an unhandled rejection.
    ready.catch(() => undefined);
    this.ready = ready;
    return ready;
  }
}

function connect(target: RedisTarget, options: RedisOptions, offlineQueue: boolean): RedisClient {
  const nodes = target.cluster?.nodes;
  if (!nodes) return new Redis(target.url, { ...COMMON, ...options });
  const seeds = nodes.map(seedOf);
  const cluster: ClusterOptions = {
    lazyConnect: true,
    enableOfflineQueue: offlineQueue,
    clusterRetryStrategy: backoff,
    // The nodes announce themselves by address: connect to what they say, with the seeds' credentials.
    redisOptions: { ...seeds[0]?.auth, ...withoutOfflineQueue(options) },
  };
  return new SettlingCluster(
    seeds.map(({ host, port }) => ({ host, port })),
    cluster,
  );
}

/** For request paths and producers: no offline queue, bounded command time. */
export function createCommandRedis(target: RedisTarget, name = "switchyard"): RedisClient {
  const client = connect(target, { ...COMMAND, connectionName: name }, false);
  coalesceWrites(client);
  return client;
}

/** When each worker connection last sent a command (see closeRedis). */
const lastSent = new WeakMap<RedisClient, { at: number }>();

/** For BullMQ workers and schedulers: blocking commands, retried across reconnects. */
export function createWorkerRedis(target: RedisTarget, name = "switchyard-worker"): RedisClient {
  const client = connect(target, { ...WORKER, connectionName: name }, true);
  coalesceWrites(client);
  if (client instanceof Redis) {
    const sent = { at: 0 };
    lastSent.set(client, sent);
    const send = client.sendCommand.bind(client);
    client.sendCommand = (command, stream) => {
      sent.at = Date.now();
      return send(command, stream);
    };
  }
  return client;
}

// BullMQ shares a worker connection it did not open, so its Worker.close() can resolve while a last
// command of its own (a stalled-job check, a connection's version check) is still to be sent; sent after
// our QUIT, it is failed with "Connection is closed." inside BullMQ, where nobody catches it. Closing
// waits for the connection to fall quiet first, bounded.
const QUIET_MS = 100;
const QUIET_WAIT_MS = 1000;

async function untilQuiet(redis: RedisClient): Promise<void> {
  const sent = lastSent.get(redis);
  if (!sent) return;
  const giveUpAt = Date.now() + QUIET_WAIT_MS;
  for (let now = Date.now(); now - sent.at < QUIET_MS && now < giveUpAt; now = Date.now())
    await new Promise((r) => setTimeout(r, QUIET_MS - (now - sent.at)).unref());
}

/**
 * From the QUIT on, what is still sent on `redis` (by a component whose timer has not yet noticed the
 * stop, or BullMQ's own housekeeping) fails with "Connection is closed." once Redis hangs up, and its
 * sender may never look at the answer: an unhandled rejection, the end of the process. Each such
 * command's rejection is marked handled here; a sender that awaits it still gets the error.
 */
function lateCommandsHandled(redis: RedisClient): void {
  pendingCommandsHandled(redis);
  const send = redis.sendCommand.bind(redis) as (...args: unknown[]) => unknown;
  (redis as { sendCommand: (...args: unknown[]) => unknown }).sendCommand = (...args: unknown[]) => {
    const sent = send(...args);
    if (sent instanceof Promise) sent.catch(() => undefined);
    return sent;
  };
}

/** ioredis's queues of commands still waiting (not its API: absent, as on a cluster client, is skipped). */
interface CommandQueues {
  readonly commandQueue?: { toArray?(): readonly { command?: { promise?: unknown } }[] };
  readonly offlineQueue?: { toArray?(): readonly { command?: { promise?: unknown } }[] };
}

/**
 * The commands still waiting on `redis` when it is closed are failed with "Connection is closed." if
 * the QUIT cannot finish first (it waits behind a blocking command, or Redis is away): mark their
 * rejections handled too. Their senders still get the error.
 */
function pendingCommandsHandled(redis: RedisClient): void {
  const queues = redis as unknown as CommandQueues;
  for (const queue of [queues.commandQueue, queues.offlineQueue])
    for (const item of queue?.toArray?.() ?? [])
      if (item.command?.promise instanceof Promise) item.command.promise.catch(() => undefined);
}

/**
 * Close a connection once everything using it has stopped. QUIT lets the commands still in flight get
 * their replies; a plain disconnect fails them with "Connection is closed." (raised from ioredis's close
 * handler), rejecting promises whose callers may no longer be there to catch them. A connection that
 * cannot quit within `waitMs` (Redis away) is dropped.
 */
export async function closeRedis(redis: RedisClient, waitMs = 2000): Promise<void> {
  if (redis.status === "end") return;
  if (redis.status !== "wait") {
    await untilQuiet(redis);
    lateCommandsHandled(redis);
    const quit = redis.quit().then(
      () => undefined,
      () => undefined,
    );
    await Promise.race([quit, new Promise((r) => setTimeout(r, waitMs).unref())]);
  }
  pendingCommandsHandled(redis);
  redis.disconnect();
}

/** What to call the target in messages (without credentials). */
export function describeRedis(target: RedisTarget): string {
  const nodes = target.cluster?.nodes;
  return nodes
    ? `the Redis Cluster at ${nodes.map(safeRedisUrl).join(", ")}`
    : `Redis at ${safeRedisUrl(target.url)}`;
}

/** Connect, or throw a message that names the target (without credentials). */
export async function connectRedis(redis: RedisClient, target: RedisTarget): Promise<void> {
  try {
    await redis.connect();
  } catch (err) {
    throw new Error(`cannot reach ${describeRedis(target)}: ${(err as Error).message}`);
  }
}

export function safeRedisUrl(url: string): string {
  return url.replace(/\/\/[^@/]*@/, "//***@");
}

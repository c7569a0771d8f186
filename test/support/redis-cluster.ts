// A real Redis Cluster for tests and benchmarks: six redis-server processes (3 masters, 3 replicas) on
// spare loopback ports in a temp dir, joined by `redis-cli --cluster create`, torn down afterwards.
// A short cluster-node-timeout lets a failover test see a replica promoted within a few seconds.
//
//   const cluster = await startTestCluster();
//   cluster.seeds                        // ["redis://127.0.0.1:<port>", ...] for redis.cluster.nodes
//   await cluster.masters()              // the current masters (port, pid), from CLUSTER NODES
//   cluster.kill(port)                   // SIGKILL one node
//   await cluster.restart(port)          // start it again (it rejoins, as a replica if it was failed over)
//   await cluster.dbsizes()              // DBSIZE per current master
//   await cluster.keysByTag()            // keys per hash tag, over every master
//   await cluster.stop()
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Cluster, Redis } from "ioredis";
import { freePort } from "../../src/runtime/dev-redis.ts";
import { hashTagOf } from "../../src/store/key-slot.ts";

const run = promisify(execFile);

export interface ClusterNodeInfo {
  readonly port: number;
  readonly role: "master" | "replica";
  /** For a replica, the port of its master. */
  readonly masterPort: number | undefined;
}

export interface TestCluster {
  /** Seed URLs of every node, as `redis.cluster.nodes` takes them. */
  readonly seeds: readonly string[];
  readonly ports: readonly number[];
  /** A new ioredis Cluster client on the seeds (the caller disconnects it). */
  client(): Cluster;
  /** Every live node's role, as the cluster sees it now. */
  topology(): Promise<ClusterNodeInfo[]>;
  masters(): Promise<ClusterNodeInfo[]>;
  /** SIGKILL the node on `port` (no shutdown, no save). */
  kill(port: number): void;
  /** Start the node on `port` again (killing it first if it runs); it rejoins with its old identity. */
  restart(port: number): Promise<void>;
  /**
   * Resolve once every live node is in the cluster's view, there are 3 masters, every node reports
   * cluster_state:ok and the role the view gives it, and every replica's link to its master is up.
   */
  waitHealthy(timeoutMs?: number): Promise<void>;
  /** DBSIZE of every current master, by port. */
  dbsizes(): Promise<Map<number, number>>;
  /** How many keys each hash tag holds, over every master. */
  keysByTag(): Promise<Map<string, number>>;
  stop(): Promise<void>;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function until(
  check: () => Promise<boolean>,
  timeoutMs: number,
  what: string,
  hopeless: () => boolean = () => false,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (hopeless()) throw new Error(`test cluster: gave up waiting for ${what}`);
    if (Date.now() > deadline) throw new Error(`test cluster: timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** One command to one node, on a short-lived connection. */
export async function ask<T>(port: number, send: (r: Redis) => Promise<T>): Promise<T> {
  const r = new Redis({
    port,
    host: "127.0.0.1",
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  r.on("error", () => undefined);
  try {
    await r.connect();
    return await send(r);
  } finally {
    r.disconnect();
  }
}

/** Parse CLUSTER NODES into roles, skipping failed nodes. */
function parseNodes(text: string): ClusterNodeInfo[] {
  const lines = text
    .trim()
    .split("\n")
    .map((l) => l.split(" "));
  const portOfId = new Map(lines.map((f) => [f[0], Number(/:(\d+)@/.exec(f[1] ?? "")?.[1])]));
  return lines
    .filter((f) => !(f[2] ?? "").includes("fail") && (f[7] ?? "") === "connected")
    .map((f) => {
      const master = (f[2] ?? "").includes("master");
      return {
        port: Number(/:(\d+)@/.exec(f[1] ?? "")?.[1]),
        role: master ? "master" : "replica",
        masterPort: master ? undefined : portOfId.get(f[3] ?? ""),
      };
    });
}

export async function startTestCluster(opts: { nodeTimeoutMs?: number } = {}): Promise<TestCluster> {
  const dir = mkdtempSync(join(tmpdir(), "switchyard-cluster-"));
  const ports: number[] = [];
  const children = new Map<number, ChildProcess>();
  const argsOf = new Map<number, string[]>();
  const stop = async (): Promise<void> => {
    await Promise.all(
      [...children.values()].map(async (child) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGKILL");
        await exited;
      }),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  // A port freePort handed out can be taken before redis-server binds it (another test's outgoing
  // connection draws from the same ephemeral range), so a node that exits or never answers is started
  // again on fresh ports rather than failing the whole cluster.
  const startNode = async (): Promise<number> => {
    let lastError: unknown;
    for (let attempt = 1; attempt <= 5; attempt++) {
      const port = await freePort();
      const bus = await freePort();
      if (port === bus || ports.includes(port) || ports.includes(bus)) continue;
      // Each node gets its own directory: nodes.conf and any dump stay apart.
      const nodeDir = mkdtempSync(join(dir, `n${port}-`));
      const args = [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--dir",
        nodeDir,
        "--logfile",
        join(nodeDir, "redis.log"),
        "--save",
        "",
        "--appendonly",
        "no",
        "--cluster-enabled",
        "yes",
        "--cluster-config-file",
        "nodes.conf",
        "--cluster-port",
        String(bus),
        "--cluster-node-timeout",
        String(opts.nodeTimeoutMs ?? 1000),
        // A replica's full sync starts at once, not after the 5 s Redis waits by default for more
        // replicas to share a diskless transfer: the cluster is ready sooner, a failed-over node is
        // back in sync sooner.
        "--repl-diskless-sync-delay",
        "0",
      ];
      const child = spawn("redis-server", args, { stdio: "ignore" });
      try {
        await until(
          async () => (await ask(port, (r) => r.ping())) === "PONG",
          10_000,
          `node ${port}`,
          () => child.exitCode !== null || child.signalCode !== null,
        );
        ports.push(port);
        argsOf.set(port, args);
        children.set(port, child);
        return port;
      } catch (err) {
        lastError = err;
        child.kill("SIGKILL");
      }
    }
    throw lastError instanceof Error ? lastError : new Error("test cluster: could not start a node");
  };
  try {
    for (let i = 0; i < 6; i++) await startNode();
    await run("redis-cli", [
      "--cluster",
      "create",
      ...ports.map((p) => `127.0.0.1:${p}`),
      "--cluster-replicas",
      "1",
      "--cluster-yes",
    ]);
  } catch (err) {
    await stop();
    throw err;
  }

  const live = (): number[] =>
    ports.filter((p) => {
      const c = children.get(p);
      return c !== undefined && c.exitCode === null && c.signalCode === null;
    });
  const topology = async (): Promise<ClusterNodeInfo[]> => {
    for (const port of live()) {
      try {
        return parseNodes(String(await ask(port, (r) => r.call("CLUSTER", "NODES"))));
      } catch {
        continue;
      }
    }
    throw new Error("test cluster: no node answers");
  };
  const cluster: TestCluster = {
    seeds: ports.map((p) => `redis://127.0.0.1:${p}`),
    ports,
    client: () => new Cluster(ports.map((port) => ({ host: "127.0.0.1", port }))),
    topology,
    masters: async () => (await topology()).filter((n) => n.role === "master"),
    kill: (port) => void children.get(port)?.kill("SIGKILL"),
    restart: async (port) => {
      const child = children.get(port);
      if (child && child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGKILL");
        await exited;
      }
      // Same port, same nodes.conf: the node rejoins the cluster it knew.
      children.set(port, spawn("redis-server", argsOf.get(port) ?? [], { stdio: "ignore" }));
      await until(async () => (await ask(port, (r) => r.ping())) === "PONG", 10_000, `node ${port}`);
    },
    // One node's CLUSTER NODES can lag behind the cluster (just after `--cluster create` a node may
    // still list all six as masters), so the view must name every live node and three masters, and
    // each node must agree about its own role: else a replica still in its first sync would pass for
    // healthy, and a master killed then is never failed over ("disconnected from master for longer
    // than allowed").
    waitHealthy: (timeoutMs = 20_000) =>
      until(
        async () => {
          const nodes = await topology();
          if (nodes.filter((n) => n.role === "master").length !== 3) return false;
          if (live().some((port) => !nodes.some((n) => n.port === port))) return false;
          for (const node of nodes) {
            const info = String(await ask(node.port, (r) => r.call("CLUSTER", "INFO")));
            if (!info.includes("cluster_state:ok")) return false;
            const repl = await ask(node.port, (r) => r.info("replication"));
            if (node.role === "master" && !repl.includes("role:master")) return false;
            if (node.role === "replica") {
              if (!repl.includes("role:slave") || !repl.includes("master_link_status:up")) return false;
              if (!repl.includes(`master_port:${node.masterPort}`)) return false;
            }
          }
          return true;
        },
        timeoutMs,
        "cluster_state:ok on every node, each replica in sync with its master",
      ),
    dbsizes: async () => {
      const out = new Map<number, number>();
      for (const m of await cluster.masters()) out.set(m.port, await ask(m.port, (r) => r.dbsize()));
      return out;
    },
    keysByTag: async () => {
      const out = new Map<string, number>();
      for (const m of await cluster.masters()) {
        await ask(m.port, async (r) => {
          let cursor = "0";
          do {
            const [next, keys] = await r.scan(cursor, "COUNT", 1000);
            cursor = next;
            for (const key of keys) out.set(hashTagOf(key), (out.get(hashTagOf(key)) ?? 0) + 1);
          } while (cursor !== "0");
        });
      }
      return out;
    },
    stop,
  };
  try {
    await cluster.waitHealthy();
  } catch (err) {
    await stop();
    throw err;
  }
  return cluster;
}

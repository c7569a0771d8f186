// A redis-server a test may crash: its own temp dir and port, an fsync-always AOF, SIGKILL and a restart
// on the same port and dir (the AOF reloads, so nothing Redis acknowledged is lost). The shared Redis
// keeps nothing on disk, so any test of a crash needs one of these.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { reachable } from "../../src/runtime/dev-redis.ts";
import { freePort } from "./rabbit.ts";

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * A redis-server with an fsync-always AOF in its own temp dir, which a test can SIGKILL and start
 * again on the same port and dir (the AOF reloads: nothing acknowledged is lost).
 */
export class PersistentRedis {
  private child: ChildProcess | undefined;
  private readonly dir = mkdtempSync(join(tmpdir(), "sy-aof-redis-"));

  private constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(): Promise<PersistentRedis> {
    const redis = new PersistentRedis(await freePort());
    await redis.spawn();
    return redis;
  }

  private async spawn(): Promise<void> {
    const args = ["--port", String(this.port), "--bind", "127.0.0.1", "--dir", this.dir, "--save", ""];
    args.push("--appendonly", "yes", "--appendfsync", "always");
    const child = spawn("redis-server", args, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString()).slice(-4000);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    this.child = child;
    // On a loaded machine a restart on a large AOF takes seconds before it listens: wait by the clock.
    const deadline = Date.now() + 60_000;
    while (!(await reachable(this.url, 200))) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(
          `redis-server on port ${this.port} exited (${child.exitCode}): ${output.slice(-1000)}`,
        );
      if (Date.now() > deadline)
        throw new Error(`redis-server did not listen on port ${this.port} within 60 s`);
      await sleep(20);
    }
  }

  /** SIGKILL: no shutdown, no final fsync beyond what `appendfsync always` already did. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGKILL");
    await exited;
  }

  restart(): Promise<void> {
    return this.spawn();
  }

  /** Resolve once the server answers commands (not LOADING while it replays its AOF). */
  async waitUntilLoaded(timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const conn = new Redis(this.url, { lazyConnect: true, enableReadyCheck: false, maxRetriesPerRequest: 0 });
    conn.on("error", () => undefined);
    try {
      for (;;) {
        try {
          if ((await conn.ping()) === "PONG") return;
        } catch (err) {
          if (Date.now() > deadline)
            throw new Error(`redis-server not ready after ${timeoutMs} ms: ${String(err)}`);
        }
        await sleep(50);
      }
    } finally {
      conn.disconnect();
    }
  }

  async stop(): Promise<void> {
    await this.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

// `npm start` on a laptop without Redis running: if nothing answers at the configured URL and
// `redis-server` is on PATH, start a private, throwaway one so the gateway comes up anyway.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface DevRedis {
  readonly url: string;
  stop(): Promise<void>;
}

/** Does something accept TCP connections at the host and port of `url`? */
export function reachable(url: string, timeoutMs = 500): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname || "127.0.0.1", port: Number(port || 6379) });
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

export function redisServerOnPath(): boolean {
  return spawnSync("redis-server", ["--version"], { stdio: "ignore" }).status === 0;
}

/** A loopback port nothing listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      srv.close(() => resolve(typeof addr === "object" && addr ? addr.port : 0));
    });
  });
}

export interface PrivateRedisOptions {
  readonly persist?: boolean;
  readonly port?: number;
  /** Have the kernel kill it when this process dies, even by SIGKILL (Linux, through util-linux's setpriv). */
  readonly dieWithParent?: boolean;
}

function setprivOnPath(): boolean {
  return spawnSync("setpriv", ["--version"], { stdio: "ignore" }).status === 0;
}

/** Start redis-server on a free loopback port in a temp dir; resolves once it answers. */
export async function startPrivateRedis(opts: PrivateRedisOptions = {}): Promise<DevRedis> {
  const dir = mkdtempSync(join(tmpdir(), "switchyard-redis-"));
  const port = opts.port ?? (await freePort());
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", ""];
  args.push("--appendonly", opts.persist ? "yes" : "no");
  // setpriv sets the parent-death signal and then execs redis-server: the child's pid is Redis's own.
  const child: ChildProcess =
    opts.dieWithParent && setprivOnPath()
      ? spawn("setpriv", ["--pdeathsig", "SIGKILL", "redis-server", ...args], { stdio: "ignore" })
      : spawn("redis-server", args, { stdio: "ignore" });
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; i < 100 && !(await reachable(url, 200)); i++) {
    await new Promise((r) => setTimeout(r, 50));
  }
  if (!(await reachable(url))) {
    child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`private redis-server did not start on port ${port}`);
  }
  return {
    url,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// A platform deploy as a new user makes it: their own config file (no port, no Redis URL), the
// Procfile's own `web` and `worker` commands, and the platform's PORT and REDIS_URL. Both roles must
// use what the environment says, not the built-in defaults.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import { afterEach, expect, it } from "vitest";
import type { HookId } from "../../src/domain/ids.ts";
import { type DevRedis, startPrivateRedis } from "../../src/runtime/dev-redis.ts";
import { Keys } from "../../src/store/keys.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";
import { REDIS_URL, deletePrefix, eventually } from "../support/test-gateway.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The Procfile's command for `role`, as the platform would run it. */
function procfileCommand(role: string): string {
  for (const line of readFileSync(join(ROOT, "Procfile"), "utf8").split("\n")) {
    const match = /^([A-Za-z0-9_-]+):\s*(.+)$/.exec(line.trim());
    if (match?.[1] === role && match[2] !== undefined) return match[2];
  }
  throw new Error(`Procfile has no "${role}" process`);
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

interface Proc {
  readonly child: ChildProcess;
  /** Resolves once every process of the role has exited (they all hold its stdout and stderr). */
  readonly closed: Promise<void>;
  out(): string;
  err(): string;
}

// The platform runs a Procfile line through a shell, in a process group of its own, so the stop
// signal reaches the children npx and tsx start as well as the command itself.
function startRole(role: string, env: Record<string, string>): Proc {
  const inherited = { ...process.env };
  delete inherited.SWITCHYARD_ROLES;
  const child = spawn(`exec ${procfileCommand(role)}`, {
    shell: true,
    cwd: ROOT,
    detached: true,
    env: { ...inherited, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d) => (stdout += d));
  child.stderr!.on("data", (d) => (stderr += d));
  const closed = new Promise<void>((r) => child.once("close", () => r()));
  cleanups.push(() => {
    if (groupAlive(child)) process.kill(-child.pid!, "SIGKILL");
  });
  return { child, closed, out: () => stdout, err: () => stderr };
}

function groupAlive(child: ChildProcess): boolean {
  try {
    process.kill(-child.pid!, 0);
    return true;
  } catch {
    return false;
  }
}

/** Every key under `prefix`, by SCAN: the shared Redis may hold other tests' keys. */
async function keysUnder(conn: Redis, prefix: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = "0";
  do {
    const [next, keys] = await conn.scan(cursor, "MATCH", `{${prefix}[:}]*`, "COUNT", 1000);
    cursor = next;
    found.push(...keys);
  } while (cursor !== "0");
  return found;
}

/** The role's pino lines. */
function logLines(proc: Proc): { level: number; msg: string; [key: string]: unknown }[] {
  return proc
    .out()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { level: number; msg: string });
}

// Stop a role as a platform stops a dyno: SIGTERM to each of its processes. Signalling only the
// Procfile's command is not enough while it is `npx`, which exits without passing the signal on.
async function stopRole(proc: Proc): Promise<void> {
  process.kill(-proc.child.pid!, "SIGTERM");
  await proc.closed;
  // Output closes as the last process exits; the kernel may take a moment more to reap it.
  await eventually(() => !groupAlive(proc.child), 5000, "every process of the role to be gone");
  const lines = logLines(proc);
  expect(lines.some((l) => l.msg === "shutting down" && l.signal === "SIGTERM")).toBe(true);
  expect(lines.filter((l) => l.level >= 50)).toEqual([]);
}

it("web and worker from the Procfile use PORT and REDIS_URL when the config names neither", async () => {
  const redis: DevRedis = await startPrivateRedis();
  cleanups.push(() => redis.stop());
  const rx: Receiver = await startReceiver();
  cleanups.push(() => rx.close());
  const prefix = `t${randomBytes(5).toString("hex")}`;
  const shared = new Redis(REDIS_URL);
  cleanups.push(async () => {
    await deletePrefix(shared, prefix);
    shared.disconnect();
  });

  const dir = mkdtempSync(join(tmpdir(), "sy-procfile-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, "switchyard.yaml");
  writeFileSync(
    file,
    [
      `redis: { prefix: ${prefix} }`,
      `http: { host: 127.0.0.1 }`,
      `sinks: { out: { type: http, url: "${rx.url}/in" } }`,
      `sources: { src: { verify: { type: none }, sinks: [out] } }`,
    ].join("\n"),
  );
  const port = await freePort();
  const env = { SWITCHYARD_CONFIG: file, PORT: String(port), REDIS_URL: redis.url, LOG_LEVEL: "info" };
  const web = startRole("web", env);
  const worker = startRole("worker", env);

  await eventually(
    () => {
      if (web.child.exitCode !== null) throw new Error(`web exited ${web.child.exitCode}: ${web.err()}`);
      return web.out().includes("switchyard listening");
    },
    30_000,
    "the web role to listen",
  );
  expect(logLines(web).find((l) => l.msg === "switchyard listening")).toMatchObject({ port, roles: ["api"] });
  expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);

  const res = await fetch(`http://127.0.0.1:${port}/webhooks/src`, { method: "POST", body: '{"a":1}' });
  expect(res.status).toBe(202);
  const { id } = (await res.json()) as { id: string };

  const [delivered] = await rx.waitForRequests(1, 30_000);
  expect(delivered!.headers["x-switchyard-id"]).toBe(id);
  expect(delivered!.body.toString()).toBe('{"a":1}');

  const viaEnv = new Redis(redis.url);
  try {
    expect(await keysUnder(viaEnv, prefix)).toContain(new Keys(prefix).hook(id as HookId));
  } finally {
    viaEnv.disconnect();
  }
  expect(await keysUnder(shared, prefix)).toEqual([]);

  await Promise.all([stopRole(web), stopRole(worker)]);
}, 90_000);

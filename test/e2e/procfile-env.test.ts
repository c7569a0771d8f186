// A platform deploy as a new user makes it: their own config file (no port, no Redis URL), the
// Procfile's own `web` and `worker` commands, and the platform's PORT and REDIS_URL. Both roles must
// use what the environment says, not the built-in defaults.
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterEach, beforeAll, expect, it } from "vitest";
import type { HookId } from "../../src/domain/ids.ts";
import { type DevRedis, startPrivateRedis } from "../../src/runtime/dev-redis.ts";
import { Keys } from "../../src/store/keys.ts";
import { buildOnce } from "../support/built-dist.ts";
import {
  type RoleProcess,
  freePort,
  groupAlive,
  startRole as startProcfileRole,
  tempConfig,
} from "../support/procfile.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";
import { REDIS_URL, deletePrefix, eventually } from "../support/test-gateway.ts";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

// The Procfile runs the compiled build.
beforeAll(() => buildOnce(), 120_000);

function startRole(role: string, env: Record<string, string>): RoleProcess {
  const proc = startProcfileRole(role, env);
  cleanups.push(() => proc.kill());
  return proc;
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

// Stop a role as a platform stops a dyno: SIGTERM to each of its processes.
async function stopRole(proc: RoleProcess): Promise<void> {
  process.kill(-proc.child.pid!, "SIGTERM");
  expect(await proc.exited).toEqual({ code: 0, signal: null });
  await eventually(() => !groupAlive(proc.child), 5000, "every process of the role to be gone");
  const lines = proc.lines();
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

  const { file, remove } = tempConfig([
    `redis: { prefix: ${prefix} }`,
    `http: { host: 127.0.0.1 }`,
    `sinks: { out: { type: http, url: "${rx.url}/in" } }`,
    `sources: { src: { verify: { type: none }, sinks: [out] } }`,
  ]);
  cleanups.push(remove);
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
  expect(web.lines().find((l) => l.msg === "switchyard listening")).toMatchObject({ port, roles: ["api"] });
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

// A deployment of the Procfile's roles on the shared Redis, as the Procfile e2e tests start it: a config
// with one unsigned source and one http sink to a receiver that holds each delivery `holdMs` before its
// 200, a prefix of its own (deleted afterwards), a free port, and a way to start a role on them.
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { type RoleProcess, freePort, startRole, tempConfig } from "./procfile.ts";
import { type Receiver, startReceiver } from "./receiver.ts";
import { REDIS_URL, deletePrefix } from "./test-gateway.ts";

export interface Deployment {
  readonly prefix: string;
  readonly port: number;
  readonly redis: Redis;
  readonly rx: Receiver;
  start(role: string): RoleProcess;
}

/** Set one up; what it starts is undone by the functions it pushes on `cleanups` (run them in reverse). */
export async function procfileDeployment(
  holdMs: number,
  cleanups: (() => Promise<void> | void)[],
): Promise<Deployment> {
  const rx = await startReceiver({ fallback: { status: 200, delayMs: holdMs } });
  cleanups.push(() => rx.close());
  const prefix = `t${randomBytes(5).toString("hex")}`;
  const redis = new Redis(REDIS_URL);
  cleanups.push(async () => {
    await deletePrefix(redis, prefix);
    redis.disconnect();
  });
  const { file, remove } = tempConfig([
    `redis: { prefix: ${prefix} }`,
    `http: { host: 127.0.0.1 }`,
    `sinks: { out: { type: http, url: "${rx.url}/in", timeout_ms: 20000 } }`,
    `sources: { src: { verify: { type: none }, sinks: [out] } }`,
  ]);
  cleanups.push(remove);
  const port = await freePort();
  const env = { SWITCHYARD_CONFIG: file, PORT: String(port), REDIS_URL, LOG_LEVEL: "info" };
  return {
    prefix,
    port,
    redis,
    rx,
    start: (role) => {
      const proc = startRole(role, env);
      cleanups.push(() => proc.kill());
      return proc;
    },
  };
}

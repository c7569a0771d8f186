// Regression: `kill <npm pid>` ended npm and its shell but left the gateway (a grandchild) and its
// private Redis running, re-parented to init. `npm start` must stop with the npm that started it, and
// its private Redis with it.
import { type ChildProcess, spawn } from "node:child_process";
import { afterEach, expect, it } from "vitest";
import { freePort, reachable } from "../../src/runtime/dev-redis.ts";
import { ROOT } from "../support/built-dist.ts";
import { eventually } from "../support/test-gateway.ts";

let npm: ChildProcess | undefined;
afterEach(() => {
  try {
    if (npm?.pid) process.kill(-npm.pid, "SIGKILL");
  } catch {
    // the group is gone already
  }
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

it("kill <npm pid> stops the gateway npm start runs, and its private Redis", async () => {
  const [deadRedis, port] = [await freePort(), await freePort()];
  npm = spawn("npm", ["start"], {
    cwd: ROOT,
    detached: true,
    env: {
      ...process.env,
      REDIS_URL: `redis://127.0.0.1:${deadRedis}`,
      PORT: String(port),
      SWITCHYARD_CONFIG: "",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  npm.stdout!.on("data", (d) => (out += d));
  npm.stderr!.on("data", (d) => (out += d));
  await eventually(() => out.includes("switchyard listening"), 60_000, "npm start to listen");
  const lines = out
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as { pid: number; msg: string; private?: string });
  const gatewayPid = lines.find((l) => l.msg === "switchyard listening")!.pid;
  const privateRedis = lines.find((l) => l.private !== undefined)!.private!;
  expect(await reachable(privateRedis)).toBe(true);

  process.kill(npm.pid!, "SIGTERM");
  await eventually(() => !alive(gatewayPid), 30_000, `the gateway (pid ${gatewayPid}) to exit after npm`);
  await eventually(async () => !(await reachable(privateRedis)), 10_000, "the private Redis to stop");
}, 120_000);

// Regression: the README's outbound quick-start failed as written on a fresh clone: /v1 answered 401
// (no admin token unless SWITCHYARD_ADMIN_TOKEN was set before npm start) and the local receiver was
// refused (loopback needs outbound.allow_private). These run the README's own shell blocks (only the
// ports are changed to spare ones) against `npm start` as a new user runs it: no token, no Redis at
// the configured URL, the bundled config.
import { type ChildProcess, spawn } from "node:child_process";
import { afterAll, beforeAll, expect, it } from "vitest";
import { freePort } from "../../src/runtime/dev-redis.ts";
import { ROOT } from "../support/built-dist.ts";
import { readmeScript, replaceAll } from "../support/readme-blocks.ts";
import { eventually } from "../support/test-gateway.ts";

const groups: ChildProcess[] = [];
let port: number;
let token: string;

/** Run `command` in a process group of its own (killed after the file), collecting its output. */
function group(command: string, args: string[], env: Record<string, string>) {
  const child = spawn(command, args, { cwd: ROOT, detached: true, env: { ...process.env, ...env } });
  groups.push(child);
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  return { child, out: () => out };
}

beforeAll(async () => {
  port = await freePort();
  const env = {
    PORT: String(port),
    REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
    SWITCHYARD_CONFIG: "",
  };
  const start = group("npm", ["start"], { ...env, SWITCHYARD_ADMIN_TOKEN: "" });
  await eventually(() => start.out().includes("switchyard listening"), 60_000, "npm start to listen");
  // The line a reader pastes into their shell.
  const printed = /export SWITCHYARD_ADMIN_TOKEN=(\S+?)"/.exec(start.out());
  expect(printed, "npm start prints a generated admin token").not.toBeNull();
  token = printed![1]!;
}, 90_000);

function signalGroup(child: ChildProcess, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-child.pid!, signal);
    return true;
  } catch {
    return false; // the group is gone
  }
}

// A drain first, so npm start removes its private Redis's folder; SIGKILL whatever is left.
afterAll(async () => {
  for (const child of groups) signalGroup(child, "SIGTERM");
  await eventually(() => groups.every((child) => !signalGroup(child, 0)), 30_000, "the groups to exit").catch(
    () => undefined,
  );
  for (const child of groups) signalGroup(child, "SIGKILL");
}, 40_000);

it("the README's Run it commands are accepted", async () => {
  const script = replaceAll(readmeScript("run-it"), "localhost:3000", `localhost:${port}`);
  const run = group("bash", ["-euc", script], {});
  const code = await new Promise((r) => run.child.once("exit", r));
  expect(code).toBe(0);
  expect(run.out().match(/"status":"accepted"/g)).toHaveLength(2);
}, 30_000);

it("the README's outbound quick-start delivers the event to the local receiver", async () => {
  const receiverPort = await freePort();
  let script = replaceAll(readmeScript("outbound"), "localhost:3000", `localhost:${port}`);
  script = replaceAll(script, "4000", String(receiverPort));
  const run = group("bash", ["-euc", script], { SWITCHYARD_ADMIN_TOKEN: token });
  await eventually(
    () => /"status":"created"/.test(run.out()),
    20_000,
    `the event to be accepted: ${run.out()}`,
  );
  expect(run.out()).toMatch(/"id":"ep_/);
  // The receiver (the script's background job) prints the delivery it got.
  await eventually(() => run.out().includes('"order":42'), 30_000, `the delivery to arrive: ${run.out()}`);
}, 60_000);

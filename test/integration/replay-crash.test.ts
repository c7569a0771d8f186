// A replay runner SIGKILLed mid-replay (ideally mid-batch) loses nothing and duplicates nothing: the
// replay job's lock lapses, another runner takes it over, finishes the announced batch and carries on
// from the durable cursor. Every hook reaches the receiver exactly once; the counters add up.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { silentLogger } from "../../src/observability/logger.ts";
import { Metrics } from "../../src/observability/metrics.ts";
import { type Gateway, startGateway } from "../../src/runtime/gateway.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";
import {
  REDIS_URL,
  type TestGateway,
  eventually,
  startTestGateway,
  testConfig,
} from "../support/test-gateway.ts";
import { admin, deadHooks, dlqSize, replayState } from "./admin-fixtures.ts";

const N = 1000;
let api: TestGateway | undefined;
let takeover: Gateway | undefined;
let rx: Receiver | undefined;
let dir: string | undefined;
const children: ChildProcess[] = [];

afterEach(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  await takeover?.stop();
  await api?.stop();
  await rx?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function startRunnerProcess(configFile: string): ChildProcess {
  const child = spawn(process.execPath, ["--import", "tsx", "workers/worker.ts"], {
    env: { ...process.env, SWITCHYARD_CONFIG: configFile, SWITCHYARD_ROLES: "recovery", LOG_LEVEL: "error" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  children.push(child);
  return child;
}

it("moves each entry exactly once when the runner is killed mid-replay and another takes over", async () => {
  rx = await startReceiver({ fallback: 410 });
  const sinks = { out: { type: "http", url: `${rx.url}/in` } };
  const sources = { src: { verify: { type: "none" }, sinks: ["out"] } };
  const config = testConfig({ dispatch: { concurrency: 32, lock_ms: 2000 }, sinks, sources });
  dir = mkdtempSync(join(tmpdir(), "sy-replay-crash-"));
  const file = join(dir, "switchyard.yaml");
  // JSON is YAML: the child reads the same deployment (prefix included).
  writeFileSync(
    file,
    JSON.stringify({
      redis: { url: REDIS_URL, prefix: config.redis.prefix },
      dispatch: { lock_ms: 2000 },
      sinks,
      sources,
    }),
  );

  // Dispatch lives here and is never killed, so a duplicate could only come from the replay.
  api = await startTestGateway(config, { roles: ["api", "dispatch"] });
  const ids = await deadHooks(api, "src", N);
  const deadAttempts = rx.requests.length;
  rx.setFallback(200);

  const runner = startRunnerProcess(file);
  const created = await admin(api, "POST", "/v1/replays", {
    body: { filter: { source: "src" }, rate_per_s: 400 },
  });
  const replayId = created.json.id as string;
  const recordKey = api.gateway.keys.replay(replayId);

  // Kill it as soon as it has announced a batch past the first 300 moves: most likely mid-batch.
  await eventually(
    async () =>
      Number(await api!.redis.hget(recordKey, "moved")) >= 300 &&
      (await api!.redis.hexists(recordKey, "inflight")) === 1,
    30_000,
    "the runner to be midway",
  );
  runner.kill("SIGKILL");
  await new Promise((r) => runner.once("exit", r));
  const atKill = await api.redis.hgetall(recordKey);
  expect(Number(atKill.moved)).toBeLessThan(N);

  takeover = await startGateway(config, {
    roles: ["recovery"],
    logger: silentLogger(),
    metrics: new Metrics(),
    listen: false,
  });
  const done = await replayState(api, replayId, "done", 45_000);
  expect(done).toMatchObject({ matched: N, moved: N, failed: 0 });

  const replayed = await rx.waitForRequests(deadAttempts + N, 15_000).then((all) => all.slice(deadAttempts));
  await new Promise((r) => setTimeout(r, 500)); // anything extra would show up now
  const after = rx.requests.slice(deadAttempts);
  expect(after).toHaveLength(N);
  const hookIds = replayed.map((r) => String(r.headers["x-switchyard-id"]));
  expect(new Set(hookIds).size).toBe(N);
  expect([...hookIds].sort()).toEqual([...ids].sort());
  for (const req of after) expect(req.headers["x-switchyard-replay-id"]).toBe(replayId);
  expect(await dlqSize(api)).toBe(0);
}, 120_000);

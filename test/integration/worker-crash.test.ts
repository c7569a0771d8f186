// A worker process killed with SIGKILL mid-attempt loses nothing: BullMQ's stalled-job check hands the
// job to another worker once the dead one's lock lapses.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it, onTestFinished } from "vitest";
import { type Receiver, startReceiver } from "../support/receiver.ts";
import { sendHook, waitForState } from "../support/hooks.ts";
import { REDIS_URL, type TestGateway, startTestGateway, testConfig } from "../support/test-gateway.ts";

let api: TestGateway | undefined;
let rx: Receiver | undefined;
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  await api?.stop();
  await rx?.close();
});

function startWorkerProcess(configFile: string): ChildProcess {
  const child = spawn(process.execPath, ["--import", "tsx", "workers/worker.ts"], {
    env: { ...process.env, SWITCHYARD_CONFIG: configFile, LOG_LEVEL: "warn" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  children.push(child);
  return child;
}

it("redelivers a job whose worker was SIGKILLed mid-attempt", async () => {
  rx = await startReceiver({ script: ["hang"], fallback: 200 });
  const config = testConfig({
    dispatch: { lock_ms: 2000, attempt_timeout_ms: 20_000 },
    sinks: { out: { type: "http", url: `${rx.url}/in`, timeout_ms: 20_000 } },
    sources: { src: { verify: { type: "none" }, sinks: ["out"] } },
  });
  const dir = mkdtempSync(join(tmpdir(), "sy-crash-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, "switchyard.yaml");
  writeFileSync(
    file,
    [
      `redis: { url: "${REDIS_URL}", prefix: ${config.redis.prefix} }`,
      `dispatch: { lock_ms: 2000, attempt_timeout_ms: 20000 }`,
      `sinks: { out: { type: http, url: "${rx.url}/in", timeout_ms: 20000 } }`,
      `sources: { src: { verify: { type: none }, sinks: [out] } }`,
    ].join("\n"),
  );
  api = await startTestGateway(config, { roles: ["api"] });
  const first = startWorkerProcess(file);

  const id = await sendHook(api, "src", '{"pay":"me"}');
  await rx.waitForRequests(1, 20_000); // the first worker is now mid-attempt (the receiver hangs)
  first.kill("SIGKILL");
  const killedAt = Date.now();

  startWorkerProcess(file);
  const state = await waitForState(api, id, "out", "delivered", 25_000);
  expect(rx.requests).toHaveLength(2);
  expect(rx.requests[1]!.headers["x-switchyard-id"]).toBe(id);
  expect(rx.requests[1]!.body.toString()).toBe('{"pay":"me"}');
  expect(state.state).toBe("delivered");
  // Documented: picked up again within 15 s (here lock_ms is 2 s).
  expect(rx.requests[1]!.receivedAt - killedAt).toBeLessThan(15_000);
}, 60_000);

// The incident commands of the `switchyard` CLI (node bin/switchyard.mjs …) against live gateways: an
// API-only process (no replay runner, so replays stay where the CLI puts them) and a worker-only one
// whose sink breaker a failing receiver opens. Also check-config's warnings.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliRun, runSwitchyard } from "../support/cli.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";
import { type TestGateway, eventually, startTestGateway, testConfig } from "../support/test-gateway.ts";
import { admin } from "./admin-fixtures.ts";

let failing: Receiver;
let web: TestGateway;
let worker: TestGateway;
let dir: string;
let endpointId: string;

const cli = (args: string[], env: Record<string, string> = {}): Promise<CliRun> =>
  runSwitchyard(web.url, args, env);

beforeAll(async () => {
  failing = await startReceiver({ fallback: 503 });
  const config = testConfig({
    dispatch: {
      retry: { base_ms: 20, max_ms: 50, max_attempts: 50, max_elapsed_ms: 60_000 },
      breaker: { failures: 2, open_ms: 60_000, max_open_ms: 60_000 },
    },
    outbound: { allow_private: true },
    sinks: { bad: { type: "http", url: `${failing.url}/in` }, audit: { type: "log" } },
    sources: { src: { verify: { type: "none" }, sinks: ["bad", "audit"] } },
  });
  web = await startTestGateway(config, { roles: ["api"] });
  worker = await startTestGateway(config, { roles: ["dispatch"] });
  const created = await admin(web, "POST", "/v1/endpoints", {
    body: { url: `${failing.url}/ep`, event_types: ["order.*"], description: "billing" },
  });
  endpointId = created.json.id;
  dir = mkdtempSync(join(tmpdir(), "sy-cli-incident-"));
});

afterAll(async () => {
  await worker.stop();
  await web.stop();
  await failing.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("switchyard incident commands", () => {
  it("replays list, pause, resume and cancel steer a replay; bad ids fail clearly", async () => {
    const started = await cli(["dlq", "replay", "--all", "--no-wait", "--json"]);
    expect(started.code).toBe(0);
    const id = JSON.parse(started.stdout).id as string;

    const listed = await cli(["replays", "list"]);
    expect(listed.code).toBe(0);
    const lines = listed.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^CREATED\s+ID\s+STATE/);
    expect(lines[1]).toMatch(new RegExp(`\\s${id}\\s+running\\s+0/0\\s+0\\s+1000\\s+-\\s+\\(everything\\)$`));

    const paused = await cli(["replays", "pause", id]);
    expect(paused).toMatchObject({ code: 0, stderr: "" });
    expect(paused.stdout).toBe(`replay ${id} paused: moved 0, failed 0 of 0 matched so far\n`);
    const onlyPaused = await cli(["replays", "list", "--state", "paused", "--json"]);
    expect(JSON.parse(onlyPaused.stdout).data.map((r: { id: string }) => r.id)).toEqual([id]);
    expect((await cli(["replays", "resume", id])).stdout).toContain(`replay ${id} running`);
    expect((await cli(["replays", "show", id])).stdout).toMatch(new RegExp(`${id}\\s+running`));
    expect((await cli(["replays", "cancel", id])).stdout).toContain(`replay ${id} cancelled`);

    // Cancelling twice is a no-op; steering a cancelled replay anywhere else is refused.
    const [again, unknown, malformed] = await Promise.all([
      cli(["replays", "resume", id]),
      cli(["replays", "pause", "rp_0000000000000000000000000z"]),
      cli(["replays", "pause", "42"]),
    ]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("refused: the replay is already cancelled");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("not found: no such replay");
    expect(malformed.code).toBe(64);
    expect(malformed.stderr).toContain('"42" is not a replay id (rp_…)');
  }, 120_000);

  it("endpoints list shows the registered endpoints", async () => {
    const run = await cli(["endpoints", "list"]);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    const lines = run.stdout.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(
      new RegExp(`^${endpointId}\\s+-\\s+${failing.url}/ep\\s+order\\.\\*\\s+enabled$`),
    );
    const paged = await cli(["endpoints", "list", "--limit", "1", "--json"]);
    expect(JSON.parse(paged.stdout)).toMatchObject({ data: [{ id: endpointId }], next_cursor: null });
  });

  it("breakers shows the sink breaker a worker process opened", async () => {
    const before = await cli(["breakers"]);
    expect(before.code).toBe(0);
    expect(before.stdout).toMatch(/^bad\s+closed\s+-\s+-$/m);
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${web.url}/webhooks/src`, { method: "POST", body: `{"n":${i}}` });
      expect(res.status).toBe(202);
    }
    const open = await eventually(async () => {
      const run = await cli(["breakers"]);
      return /^bad\s+open\s/m.test(run.stdout) ? run : undefined;
    });
    expect(open.stdout).toMatch(/^bad\s+open\s+\d{4}-\d\d-\d\dT\S+\s+-$/m);
    expect(open.stdout).toMatch(/^audit\s+closed\s/m);
    expect(open.stdout).toContain("no endpoint breaker is open (1 endpoint checked)");
    const json = JSON.parse((await cli(["breakers", "--json"])).stdout);
    expect(json.sinks.find((s: { sink: string }) => s.sink === "bad").state).toBe("open");
  }, 90_000);

  it("an unreachable API or a refused token is a clear error with its exit code", async () => {
    const down = await cli(["breakers"], { SWITCHYARD_URL: "http://127.0.0.1:9" });
    expect(down.code).toBe(69);
    expect(down.stderr).toContain("cannot reach the Switchyard admin API");
    const refused = await cli(["replays", "list"], { SWITCHYARD_ADMIN_TOKEN: "wrong-token-0123456789" });
    expect(refused.code).toBe(77);
  });

  it("check-config prints the warnings for the process it checks for; --strict fails on them", async () => {
    const file = join(dir, "warn.yaml");
    writeFileSync(
      file,
      [
        "dispatch: { lock_ms: 5000, attempt_timeout_ms: 20000 }",
        "outbound: { timeout_ms: 3000 }",
        "sinks: { bus: { type: amqp, url: 'amqp://127.0.0.1', exchange: hooks } }",
        "sources: { s: { verify: { type: none }, sinks: [bus] } }",
        "",
      ].join("\n"),
    );
    const asWorker = { SWITCHYARD_ROLES: "dispatch,recovery" };
    const worker = await cli(["check-config", file], asWorker);
    expect(worker.code).toBe(0);
    expect(worker.stdout).toBe(`ok: ${file} is valid (1 source, 1 sink)\n`);
    const warnings = worker.stderr.split("\n").filter((l) => l.startsWith("warning: "));
    expect(warnings).toEqual([
      expect.stringMatching(
        /^warning: http\.public_url: unset in a process that delivers without the api role/,
      ),
      expect.stringMatching(/^warning: http\.metrics_port: unset in a process that delivers/),
    ]);
    expect(worker.stderr).toContain("checked for a process with roles dispatch,recovery");

    const [allInOne, webOnly, strict] = await Promise.all([
      cli(["check-config", file, "--roles", "api,dispatch,recovery"]),
      cli(["check-config", file], { SWITCHYARD_ROLES: "api" }),
      cli(["check-config", file, "--strict"], asWorker),
    ]);
    // With the API in the same process, claim URLs and metrics are served: nothing to warn about.
    expect(allInOne.stderr.split("\n").filter((l) => l.startsWith("warning: "))).toHaveLength(0);
    expect(webOnly).toMatchObject({ code: 0, stderr: "" });
    expect(strict.code).toBe(78);
  }, 90_000);
});

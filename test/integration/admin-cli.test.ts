// The `switchyard` CLI as an operator runs it (node bin/switchyard.mjs …) against a live gateway.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sinkDeliveryId } from "../../src/domain/hook.ts";
import type { HookId } from "../../src/domain/ids.ts";
import { type CliRun, runSwitchyard } from "../support/cli.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";
import { type TestGateway, startTestGateway, testConfig } from "../support/test-gateway.ts";
import { admin, deadHooks } from "./admin-fixtures.ts";

let rx: Receiver;
let gw: TestGateway;
let ids: string[];
let dir: string;

const cli = (args: string[], env: Record<string, string> = {}): Promise<CliRun> =>
  runSwitchyard(gw.url, args, env);

beforeAll(async () => {
  rx = await startReceiver({ fallback: 410 });
  gw = await startTestGateway(
    testConfig({
      sinks: { out: { type: "http", url: `${rx.url}/in` } },
      sources: {
        src: { verify: { type: "none" }, sinks: ["out"] },
        other: { verify: { type: "none" }, sinks: ["out"] },
      },
    }),
  );
  ids = await deadHooks(gw, "src", 3);
  await deadHooks(gw, "other", 1);
  dir = mkdtempSync(join(tmpdir(), "sy-cli-"));
});

afterAll(async () => {
  await gw.stop();
  await rx.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("switchyard CLI", () => {
  it("dlq list prints a table of the matching dead deliveries", async () => {
    const run = await cli(["dlq", "list", "--source", "src", "--since", "1h"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^DEAD AT\s+ID\s+DIRECTION\s+SOURCE\/TYPE\s+TARGET/);
    expect(lines).toHaveLength(4);
    expect(
      lines
        .slice(1)
        .map((l) => l.split(/\s+/)[1])
        .sort(),
    ).toEqual(ids.map((id) => sinkDeliveryId(id as HookId, "out")).sort());
    for (const line of lines.slice(1)) expect(line).toMatch(/\bsrc\b.*\bout\b.*\bpermanent\b.*HTTP 410/);
  });

  it("fails clearly with a refused token, an unreachable server, or a bad config", async () => {
    const bad = join(dir, "bad.yaml");
    writeFileSync(
      bad,
      "sinks: { out: { type: http, url: 'ftp://nope' } }\nsources: { s: { verify: { type: none }, sinks: [out] } }\n",
    );
    const [refused, down, config] = await Promise.all([
      cli(["dlq", "list"], { SWITCHYARD_ADMIN_TOKEN: "wrong-token-0123456789" }),
      cli(["dlq", "list"], { SWITCHYARD_URL: "http://127.0.0.1:9" }),
      cli(["check-config", bad]),
    ]);
    expect(refused.code).toBe(77);
    expect(refused.stderr).toContain("refused the token");
    expect(down.code).toBe(69);
    expect(down.stderr).toContain("cannot reach the Switchyard admin API at http://127.0.0.1:9");
    expect(config.code).toBe(78);
    expect(config.stderr).toContain("sinks.out.url");
  });

  it("hooks show and dlq replay work end to end", async () => {
    const shown = await cli(["hooks", "show", ids[0]!]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/^out\s+dead\s+1\s+/m);

    rx.setFallback(200);
    const replay = await cli(["dlq", "replay", "--source", "src", "--rate", "100"]);
    expect(replay.stderr).toContain("started");
    expect(replay.code).toBe(0);
    expect(replay.stdout).toMatch(/^replay rp_\S+ done: moved 3, failed 0 of 3 matched/);
    const left = await admin(gw, "GET", "/v1/dlq");
    expect(left.json.data.map((e: { source: string }) => e.source)).toEqual(["other"]);
  });
});

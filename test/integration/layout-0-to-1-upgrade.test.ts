// The upgrade from the pre-ledger release, run for real: the commit just before the delivery ledger is
// checked out from this repository's history into a temp dir, installed from its own lockfile and run
// on a scratch prefix until it holds hooks queued (a sink that hangs: one attempt in flight, the rest
// waiting), retrying (a sink answering 503) and dead (a sink answering 400: DLQ); then it is killed as
// a crash would. The current gateway booted on the same prefix migrates it (layout 0 -> 1) and every
// delivery ends as it would have: delivered, attempts carried, or dead in GET /v1/dlq, replayable.
import { type ChildProcess, execSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sinkDeliveryId } from "../../src/domain/hook.ts";
import type { HookId } from "../../src/domain/ids.ts";
import { Keys } from "../../src/store/keys.ts";
import { CURRENT_LAYOUT } from "../../src/store/layout/layouts.ts";
import { admin } from "./admin-fixtures.ts";
import { archiveCommit } from "../support/previous-release.ts";
import {
  REDIS_URL,
  type TestGateway,
  deletePrefix,
  eventually,
  startTestGateway,
  testConfig,
} from "../support/test-gateway.ts";

/** The pre-ledger release: the parent of the commit that brought the delivery ledger. */
const PRE_LEDGER = "15edcf3~1";
const SINKS = ["slow", "flaky", "reject"] as const;
const HOOKS = 3;
const OLD_TOKEN = "pre-ledger-test-token-0123456789";

const prefix = `up${Date.now().toString(36)}`;
const keys = new Keys(prefix);
const redis = new Redis(REDIS_URL);
const dir = mkdtempSync(join(tmpdir(), "switchyard-pre-ledger-"));
let receiver: Server;
let receiverUrl = "";
let old: ChildProcess | undefined;
let gw: TestGateway | undefined;
/** "old": /slow hangs, /flaky answers 503, /reject 400. "new": everything answers 200. */
let phase: "old" | "new" = "old";
const received: { path: string; hook: string; phase: string }[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      const path = req.url ?? "";
      received.push({ path, hook: body, phase });
      if (phase === "new") return res.writeHead(200).end();
      if (path === "/slow") return; // hangs: the old process dies with this attempt in flight
      res.writeHead(path === "/flaky" ? 503 : 400).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  await archiveCommit(PRE_LEDGER, dir);
  execSync("npm ci --prefer-offline --no-audit --no-fund --loglevel=error", { cwd: dir, stdio: "ignore" });
}, 120_000);

afterAll(async () => {
  if (old?.pid !== undefined && old.exitCode === null && old.signalCode === null)
    process.kill(-old.pid, "SIGKILL");
  await gw?.stop();
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
  await deletePrefix(redis, prefix);
  redis.disconnect();
  rmSync(dir, { recursive: true, force: true });
});

/** Start the pre-ledger release on the prefix; resolves with its API's port. */
function startOld(): Promise<number> {
  const sink = (name: string, extra = "") =>
    `  ${name}: { type: http, url: "${receiverUrl}/${name}"${extra} }`;
  const config = join(dir, "switchyard.yaml");
  writeFileSync(
    config,
    [
      `redis: { url: "${REDIS_URL}", prefix: ${prefix} }`,
      "http: { port: 0, host: 127.0.0.1 }",
      `admin: { tokens: ["${OLD_TOKEN}"] }`,
      "dispatch: { attempt_timeout_ms: 60000, retry: { base_ms: 2000, max_ms: 4000, max_attempts: 25 } }",
      "sinks:",
      sink("slow", ", concurrency: 1"),
      sink("flaky"),
      sink("reject"),
      "sources:",
      "  up: { verify: { type: none }, dedup: body, sinks: [slow, flaky, reject] }",
      "",
    ].join("\n"),
  );
  const child = spawn(process.execPath, ["--import", "tsx", "workers/main.ts"], {
    cwd: dir,
    env: { ...process.env, SWITCHYARD_CONFIG: config, LOG_LEVEL: "info" },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  old = child;
  let out = "";
  return new Promise((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const port = /"port":(\d+)[^\n]*switchyard listening/.exec(out)?.[1];
      if (port) resolve(Number(port));
    });
    child.stderr?.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.on("exit", (code) => reject(new Error(`the pre-ledger release exited (${code}): ${out}`)));
  });
}

const row = (hook: string, sink: string) =>
  redis.hgetall(keys.delivery(sinkDeliveryId(hook as HookId, sink)));

describe("upgrade from the pre-ledger release", () => {
  it("carries queued, in-flight, retrying and dead deliveries into the ledger; each ends as it would have", async () => {
    const port = await startOld();
    const hooks: string[] = [];
    for (let i = 0; i < HOOKS; i++) {
      const res = await fetch(`http://127.0.0.1:${port}/webhooks/up`, { method: "POST", body: `{"n":${i}}` });
      expect(res.status).toBe(202);
      hooks.push(((await res.json()) as { id: string }).id);
    }
    // Wait for the old release's own record of each state: retrying and dead on the record, a DLQ
    // entry per dead one, and the slow sink's first attempt hanging at the receiver.
    const oldBase = `{${prefix}}`;
    const oldStates = await eventually(
      async () => {
        const states = await Promise.all(
          hooks.map(async (id) => {
            const [flaky, reject] = await redis.hmget(`${oldBase}:hook:${id}`, "s:flaky", "s:reject");
            return {
              flaky: flaky ? JSON.parse(flaky) : undefined,
              reject: reject ? JSON.parse(reject) : undefined,
            };
          }),
        );
        const settled =
          states.every((s) => s.flaky?.state === "retrying" && s.reject?.state === "dead") &&
          (await redis.zcard(`${oldBase}:dlq:all`)) === HOOKS &&
          received.some((r) => r.path === "/slow");
        return settled && states;
      },
      20_000,
      "the pre-ledger release to leave deliveries retrying and dead",
    );
    // Killed, as a crash: whatever was in flight stays "active" in its old queue.
    process.kill(-(old?.pid as number), "SIGKILL");
    await new Promise((r) => old?.once("exit", r));
    expect(await redis.llen(`${oldBase}:sink-slow:active`)).toBe(1);
    expect(await redis.llen(`${oldBase}:sink-slow:wait`)).toBe(HOOKS - 1);
    phase = "new";

    const config = testConfig({
      redis: { prefix },
      sinks: Object.fromEntries(SINKS.map((s) => [s, { type: "http", url: `${receiverUrl}/${s}` }])),
      sources: { up: { verify: { type: "none" }, dedup: "body", sinks: [...SINKS] } },
    });
    gw = await startTestGateway(config);
    expect(await redis.get(keys.layoutVersion)).toBe(String(CURRENT_LAYOUT));
    expect(await redis.keys(`${oldBase}:*`)).toEqual([]);

    let seen: Record<string, string>[] = [];
    await eventually(
      async () => {
        seen = await Promise.all(hooks.flatMap((h) => SINKS.map((s) => row(h, s))));
        return seen.every((r, i) => r.st === (SINKS[i % SINKS.length] === "reject" ? "dead" : "delivered"));
      },
      60_000,
      () =>
        `every carried delivery to end; last seen: ${JSON.stringify(seen.map(({ p, t, st, a, na, le }) => ({ p, t, st, a, na, le })))}; received in the new phase: ${JSON.stringify(received.filter((r) => r.phase === "new"))}`,
    );
    for (const [i, hook] of hooks.entries()) {
      const flaky = await row(hook, "flaky");
      // The attempts the old release made count against the budget: one more delivered it.
      expect(Number(flaky.a)).toBe((oldStates[i]?.flaky.attempts as number) + 1);
      expect(Number((await row(hook, "slow")).a)).toBe(1);
      const reject = await row(hook, "reject");
      expect(reject).toMatchObject({ a: "1", ec: "permanent", le: oldStates[i]?.reject.last_error });
      // Each delivery made once by the new release: nothing carried twice.
      for (const sink of ["slow", "flaky"])
        expect(
          received.filter((r) => r.phase === "new" && r.path === `/${sink}` && r.hook === `{"n":${i}}`),
        ).toHaveLength(1);
    }

    const dlq = await admin(gw, "GET", "/v1/dlq");
    expect(dlq.status).toBe(200);
    expect(dlq.json.data.map((e: { hook_id: string }) => e.hook_id).sort()).toEqual([...hooks].sort());
    expect(
      dlq.json.data.every(
        (e: { error_class: string; sink: string }) => e.error_class === "permanent" && e.sink === "reject",
      ),
    ).toBe(true);

    const replay = await admin(gw, "POST", "/v1/replays", { body: { filter: { sink: "reject" } } });
    expect(replay.status, JSON.stringify(replay.json)).toBe(202);
    await eventually(
      async () => (await Promise.all(hooks.map((h) => row(h, "reject")))).every((r) => r.st === "delivered"),
      20_000,
      "the replayed dead deliveries to be delivered",
    );
    expect(received.filter((r) => r.phase === "new" && r.path === "/reject")).toHaveLength(HOOKS);
  }, 110_000);
});

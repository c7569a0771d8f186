// A rolling upgrade from release 0.1.0 (data layout 1): the old gateway, built from this repository's
// own history, runs with deliveries pending, retrying, in flight and dead, inbound and outbound; the
// current gateway starts beside it (migrating the layout while the old one keeps working), both run a
// while, then the old one stops. Every delivery ends as it would have, the dead ones stay replayable
// through the new API, and no row or job is left behind.
import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { type IncomingMessage, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ROOT } from "../support/built-dist.ts";
import { census, owner } from "../support/key-census.ts";
import { RELEASE_0_1_0, previousRelease } from "../support/previous-release.ts";
import { freePort } from "../../src/runtime/dev-redis.ts";
import { REDIS_URL, deletePrefix, eventually } from "../support/test-gateway.ts";

const TOKEN = "rolling-upgrade-token-0123456789";
const prefix = `ru${createHash("sha1").update(`${process.pid}${Date.now()}`).digest("hex").slice(0, 8)}`;
const redis = new Redis(REDIS_URL);
const dir = mkdtempSync(join(tmpdir(), "switchyard-rolling-"));
const children: ChildProcess[] = [];
let oldTree = "";

/** Receivers by path: /ok answers 200, /flaky fails each body's first 2 attempts, /slow answers after 5 s, /bad 400 until fixed. */
const seen = new Map<string, number>();
let badFixed = false;
const server = createServer((req: IncomingMessage, res: ServerResponse) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const kind = (req.url ?? "").split("/")[1] ?? "";
    const key = `${kind} ${Buffer.concat(chunks).toString("utf8")}`;
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    const answer = (status: number) => res.writeHead(status).end();
    if (kind === "flaky") answer(n <= 2 ? 503 : 200);
    else if (kind === "slow") setTimeout(() => answer(200), 5_000);
    else if (kind === "bad") answer(badFixed ? 200 : 400);
    else answer(200);
  });
});

function configFile(name: string, port: number, receiver: string): string {
  const retry = "{ base_ms: 400, max_ms: 1500, max_attempts: 8, max_elapsed_ms: 120000 }";
  const file = join(dir, `${name}.yaml`);
  writeFileSync(
    file,
    [
      `redis: { url: "${REDIS_URL}", prefix: ${prefix} }`,
      `http: { port: ${port}, host: 127.0.0.1 }`,
      `admin: { tokens: ["${TOKEN}"] }`,
      "retention_s: 600",
      "recovery: { interval_ms: 500, stale_after_ms: 3000 }",
      `dispatch: { retry: ${retry}, breaker: { failures: 1000, open_ms: 500, max_open_ms: 1000 } }`,
      `outbound: { allow_private: true, retry: ${retry}, breaker: { failures: 1000, open_ms: 500, max_open_ms: 1000 } }`,
      "sinks:",
      ...["ok", "flaky", "slow", "bad"].map((s) => `  ${s}: { type: http, url: "${receiver}/${s}/in" }`),
      "sources:",
      "  shop: { verify: { type: none }, dedup: { json: id }, dedup_ttl_s: 600, sinks: [ok, flaky, slow, bad] }",
      "",
    ].join("\n"),
  );
  return file;
}

interface Gateway {
  readonly url: string;
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  log(): string;
}

async function startGateway(cwd: string, entry: string[], config: string, port: number): Promise<Gateway> {
  const child = spawn(process.execPath, entry, {
    cwd,
    env: { ...process.env, SWITCHYARD_CONFIG: config, NODE_ENV: "production", LOG_LEVEL: "info" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let log = "";
  child.stdout!.on("data", (d) => (log += d));
  child.stderr!.on("data", (d) => (log += d));
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  const url = `http://127.0.0.1:${port}`;
  await eventually(
    async () => {
      if (child.exitCode !== null) throw new Error(`gateway exited ${child.exitCode}: ${log.slice(-2000)}`);
      return (await fetch(`${url}/healthz`).catch(() => undefined))?.status === 200;
    },
    60_000,
    `the gateway in ${cwd} to answer`,
  );
  return { url, child, exited, log: () => log };
}

async function api(gw: Gateway, method: string, path: string, body?: unknown) {
  const res = await fetch(`${gw.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, json: (text ? JSON.parse(text) : {}) as Record<string, any> };
}

async function postHook(gw: Gateway, id: string): Promise<string> {
  const res = await fetch(`${gw.url}/webhooks/shop`, { method: "POST", body: JSON.stringify({ id }) });
  expect(res.status).toBe(202);
  return ((await res.json()) as { id: string }).id;
}

beforeAll(async () => {
  server.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  oldTree = await previousRelease(RELEASE_0_1_0);
}, 300_000);

afterAll(async () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  server.close();
  await deletePrefix(redis, prefix);
  redis.disconnect();
  rmSync(dir, { recursive: true, force: true });
});

it("rolling upgrade from 0.1.0: old and new workers at once, then the old stopped; nothing lost or orphaned", async () => {
  const receiver = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const [oldPort, newPort] = [await freePort(), await freePort()];
  const old = await startGateway(
    oldTree,
    ["dist/workers/main.js"],
    configFile("old", oldPort, receiver),
    oldPort,
  );

  // Outbound on the old release: one tenant's endpoints, one per behaviour, and events for them.
  const endpoints: Record<string, string> = {};
  for (const kind of ["ok", "flaky", "slow", "bad"]) {
    const made = await api(old, "POST", "/v1/endpoints", {
      url: `${receiver}/${kind}/out`,
      event_types: ["order.*"],
      tenant: "acme",
    });
    expect(made.status, JSON.stringify(made.json)).toBe(201);
    endpoints[kind] = made.json.id as string;
  }
  const events = ["o-1", "o-2"];
  for (const id of events)
    expect(
      (await api(old, "POST", "/v1/events", { id, type: "order.paid", tenant: "acme", payload: { id } }))
        .status,
    ).toBe(202);
  // An event no endpoint takes: 0.1.0 keeps it for good, the migration gives it its expiry.
  const unheld = { id: "nobody-1", type: "nobody.cares", tenant: "acme", payload: {} };
  expect((await api(old, "POST", "/v1/events", unheld)).status).toBe(202);
  const hooks = [await postHook(old, "h-1"), await postHook(old, "h-2")];
  // Pending, retrying, in flight and dead while only the old release runs.
  await eventually(
    async () => [...seen.keys()].some((k) => k.startsWith("slow")),
    20_000,
    "a slow delivery in flight",
  );
  await eventually(
    async () => [...seen].some(([k, n]) => k.startsWith("flaky") && n >= 1),
    20_000,
    "a flaky delivery failing",
  );
  await eventually(
    async () => ((await api(old, "GET", "/v1/dlq")).json.data?.length ?? 0) >= 2,
    20_000,
    "the bad deliveries dead",
  );

  // The current release beside it: it migrates the layout while the old one goes on working.
  const current = await startGateway(
    ROOT,
    ["--import", "tsx", "workers/main.ts"],
    configFile("new", newPort, receiver),
    newPort,
  );
  // Both accept work for a while: the new one finds the old events and takes a re-publish as a duplicate.
  const again = await api(current, "POST", "/v1/events", {
    id: "o-1",
    type: "order.paid",
    tenant: "acme",
    payload: { id: "o-1" },
  });
  expect(again.json.counts, JSON.stringify(again.json)).toEqual({
    created: 0,
    duplicate: 4,
    enqueue_failed: 0,
    endpoint_error: 0,
  });
  expect((await api(current, "GET", "/v1/events/o-2?tenant=acme")).status).toBe(200);
  events.push("o-3");
  expect(
    (
      await api(current, "POST", "/v1/events", {
        id: "o-3",
        type: "order.paid",
        tenant: "acme",
        payload: { id: "o-3" },
      })
    ).status,
  ).toBe(202);
  events.push("o-4");
  expect(
    (
      await api(old, "POST", "/v1/events", {
        id: "o-4",
        type: "order.paid",
        tenant: "acme",
        payload: { id: "o-4" },
      })
    ).status,
  ).toBe(202);
  hooks.push(await postHook(current, "h-3"), await postHook(old, "h-4"));
  await new Promise((r) => setTimeout(r, 3_000));

  old.child.kill("SIGTERM");
  expect(await old.exited).toBe(0);

  // Every delivery ends as it would have: the bad ones dead, the others delivered.
  const expected = (kind: string) => (kind === "bad" ? "dead" : "delivered");
  const outbound = async () => {
    const states: Record<string, string> = {};
    for (const id of events) {
      const rows = (await api(current, "GET", `/v1/events/${id}/deliveries?tenant=acme`)).json.data as {
        endpoint_id: string;
        state: string;
      }[];
      for (const [kind, ep] of Object.entries(endpoints))
        states[`${id} ${kind}`] = rows.find((r) => r.endpoint_id === ep)?.state ?? "missing";
    }
    return states;
  };
  const inbound = async () => {
    const states: Record<string, string> = {};
    for (const id of hooks) {
      const view = (await api(current, "GET", `/v1/hooks/${id}`)).json;
      for (const kind of Object.keys(endpoints))
        states[`${id} ${kind}`] = view.sinks?.[kind]?.state ?? "missing";
    }
    return states;
  };
  const settled = (states: Record<string, string>) =>
    Object.entries(states).every(([k, s]) => s === expected(k.split(" ")[1] ?? ""));
  await eventually(async () => settled(await outbound()), 90_000, "every outbound delivery ended");
  await eventually(async () => settled(await inbound()), 90_000, "every inbound delivery ended");

  // The dead stay replayable through the new API once their receiver is fixed.
  badFixed = true;
  for (const filter of [{ endpoint: endpoints.bad }, { sink: "bad" }]) {
    const replay = await api(current, "POST", "/v1/replays", { filter });
    expect(replay.status, JSON.stringify(replay.json)).toBe(202);
  }
  const allDelivered = async () =>
    [...Object.values(await outbound()), ...Object.values(await inbound())].every((s) => s === "delivered");
  await eventually(allDelivered, 60_000, "the replayed deliveries delivered");

  // Nothing left behind: no live row, no job in a delivery queue, and (the key census) no key kept
  // for good that nothing owns. Finished rows, hooks and events expire after retention_s.
  const live = { endpoints: new Set(Object.values(endpoints)), sinks: new Set(Object.keys(endpoints)) };
  const leftovers = async (): Promise<string[]> => {
    const found: string[] = [];
    for (const [key, ttl] of await census(redis, prefix)) {
      if (/\}:dl:/.test(key)) {
        const st = await redis.hget(key, "st");
        if (st !== "delivered" && st !== "dead") found.push(`${key}: a row in state ${st}`);
      } else if (/\}:(sink-[^:]+|outbound):(wait|active|delayed|prioritized|paused)$/.test(key)) {
        const n = (await redis.type(key)) === "list" ? await redis.llen(key) : await redis.zcard(key);
        if (n > 0) found.push(`${key}: ${n} job(s)`);
      } else if (key === `{${prefix}:replays}:replay-index`) {
        // The index of replay records: each member's record must still be there (they expire).
        for (const id of await redis.zrange(key, 0, -1))
          if ((await redis.exists(`{${prefix}:replays}:replay:${id}`)) === 0)
            found.push(`${key}: ${id} has no record`);
      } else if (ttl === -1 && owner(key, `{${prefix}`, live) === undefined)
        found.push(`${key}: kept for good`);
    }
    return found;
  };
  // Emptied DLQ indexes leave their bucket's registry at the next trim (a recovery tick): look again
  // for a while; what is kept for good stays in the list.
  let left = await leftovers();
  for (const t0 = Date.now(); left.length > 0 && Date.now() - t0 < 20_000; left = await leftovers())
    await new Promise((r) => setTimeout(r, 500));
  expect(left).toEqual([]);
  expect(current.log()).toContain("layout migration 1 -> 2: done, layout is now 2");

  current.child.kill("SIGTERM");
  expect(await current.exited).toBe(0);
}, 240_000);

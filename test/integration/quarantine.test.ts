// regression: quarantine was unbounded, unauthenticated storage nobody could find. Bad-signature hooks
// of a quarantining source are kept in a store capped by count and bytes, listed at GET /v1/quarantine
// (admin, tenant-scoped), their id logged, never dedup-parsed and never delivered.
import { pino } from "pino";
import { afterEach, expect, it } from "vitest";
import { admin } from "./admin-fixtures.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";
import { type TestGateway, startTestGateway, testConfig } from "../support/test-gateway.ts";

let gw: TestGateway | undefined;
let rx: Receiver | undefined;
afterEach(async () => {
  await gw?.stop();
  await rx?.close();
});

it("regression: quarantine is unbounded — keeps at most its caps, lists them, never delivers", async () => {
  rx = await startReceiver();
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: "info" }, { write: (l: string) => void lines.push(JSON.parse(l)) });
  gw = await startTestGateway(
    testConfig({
      quarantine: { max_entries: 10, max_bytes: 64 * 1024, ttl_s: 60 },
      sinks: { out: { type: "http", url: `${rx.url}/in` } },
      sources: {
        gh: {
          verify: { type: "github", secrets: ["s3cret-s3cret"] },
          on_verify_failure: "quarantine",
          dedup: { json: "id" },
          sinks: ["out"],
        },
      },
    }),
    { logger },
  );
  for (let i = 0; i < 50; i++) {
    const res = await fetch(`${gw.url}/webhooks/gh`, {
      method: "POST",
      body: JSON.stringify({ id: `evt_${i}`, pad: "x".repeat(2000) }),
      headers: { "x-hub-signature-256": "sha256=00", "content-type": "application/json" },
    });
    expect(res.status).toBe(401);
  }
  const listed = (await admin(gw, "GET", "/v1/quarantine?limit=100")).json.data as {
    id: string;
    reason: string;
  }[];
  expect(listed).toHaveLength(10);
  // The store holds exactly what it lists, within the byte cap.
  const keys = gw.gateway.keys;
  expect(await gw.redis.zcard(keys.quarantineIndex)).toBe(10);
  expect(Number(await gw.redis.get(keys.quarantineBytes))).toBeLessThanOrEqual(64 * 1024);
  // Each id is in the log line of its refusal, and can be opened with its body.
  const logged = new Set(lines.filter((l) => l.msg === "verification failed").map((l) => l.quarantine_id));
  for (const q of listed) expect(logged.has(q.id)).toBe(true);
  const one = (await admin(gw, "GET", `/v1/quarantine/${listed[0]!.id}?include=body`)).json;
  expect(JSON.parse(Buffer.from(one.body_base64 as string, "base64").toString()).id).toBe("evt_49");
  // Never dedup-parsed, never a hook, never delivered.
  expect(await gw.redis.keys(`{${gw.config.redis.prefix}:*}:dedup:*`)).toEqual([]);
  expect(await gw.redis.keys(`{${gw.config.redis.prefix}:*}:hook:*`)).toEqual([]);
  expect(rx.requests).toHaveLength(0);
  // Without a token: 401.
  expect((await admin(gw, "GET", "/v1/quarantine", { token: null })).status).toBe(401);
});

it("regression: one request larger than quarantine.max_bytes emptied the whole quarantine — it is refused, counted and logged", async () => {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: "info" }, { write: (l: string) => void lines.push(JSON.parse(l)) });
  gw = await startTestGateway(
    testConfig({
      http: { max_body_bytes: 256 * 1024 },
      quarantine: { max_entries: 100, max_bytes: 32 * 1024, ttl_s: 60 },
      sinks: { log: { type: "log" } },
      sources: {
        gh: {
          verify: { type: "github", secrets: ["s3cret-s3cret"] },
          on_verify_failure: "quarantine",
          sinks: ["log"],
          allow_non_durable: true,
        },
      },
    }),
    { logger },
  );
  const bad = (body: string) =>
    fetch(`${gw!.url}/webhooks/gh`, {
      method: "POST",
      body,
      headers: { "x-hub-signature-256": "sha256=00", "content-type": "application/json" },
    });
  for (let i = 0; i < 5; i++)
    expect((await bad(JSON.stringify({ i, pad: "x".repeat(1000) }))).status).toBe(401);
  expect((await bad(JSON.stringify({ big: "y".repeat(100 * 1024) }))).status).toBe(401);
  const keys = gw.gateway.keys;
  expect(await gw.redis.zcard(keys.quarantineIndex), "the five small entries are still kept").toBe(5);
  expect((await admin(gw, "GET", "/v1/quarantine?limit=100")).json.data).toHaveLength(5);
  const refused = lines.filter((l) => l.msg === "verification failed" && l.quarantine_refused !== undefined);
  expect(refused).toHaveLength(1);
  const metrics = await (await fetch(`${gw.url}/metrics`)).text();
  expect(metrics).toMatch(/switchyard_quarantine_refused_total\{source="gh",reason="too_large"\} 1/);
});

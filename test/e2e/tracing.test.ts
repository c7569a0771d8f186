// OpenTelemetry end to end, against a stand-in collector: a hook that arrives with a traceparent is one
// trace from its ingest span to every attempt's span, and each destination (the HTTP sink's receiver, a
// RabbitMQ message, an outbound endpoint) receives the traceparent of the attempt that reached it. The
// first test configures a real process through the OTEL_* environment alone (OTLP http/json); the others
// run the gateway in-process with the same variables passed as `otelEnv` (OTLP http/protobuf).
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import { afterEach, expect, it } from "vitest";
import type { HookId } from "../../src/domain/ids.ts";
import { Keys } from "../../src/store/keys.ts";
import { waitForState } from "../support/hooks.ts";
import { type OtlpReceiver, type OtlpSpan, startOtlpReceiver } from "../support/otlp-receiver.ts";
import { RABBIT_URL, rabbitFixture } from "../support/rabbit.ts";
import { type ReceivedRequest, startReceiver } from "../support/receiver.ts";
import {
  ADMIN_TOKEN,
  REDIS_URL,
  deletePrefix,
  eventually,
  startTestGateway,
  testConfig,
} from "../support/test-gateway.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const SERVER = 2;
const CLIENT = 3;
const ERROR = 2;

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A caller's trace: the traceparent it sends, and the ids in it. */
function callerTrace(): { traceId: string; spanId: string; traceparent: string } {
  const traceId = randomBytes(16).toString("hex");
  const spanId = randomBytes(8).toString("hex");
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

/** The parent span id in a traceparent header, checking it continues `traceId`. */
function parentIn(header: string | string[] | undefined, traceId: string): string {
  const m = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(String(header));
  expect(m?.[1], `traceparent ${String(header)}`).toBe(traceId);
  return m![2]!;
}

const inTrace = (spans: readonly OtlpSpan[], traceId: string) => spans.filter((s) => s.traceId === traceId);

async function collector(): Promise<OtlpReceiver> {
  const otlp = await startOtlpReceiver();
  cleanups.push(() => otlp.close());
  return otlp;
}

async function receiver(...script: number[]) {
  const rx = await startReceiver({ script, fallback: 200 });
  cleanups.push(() => rx.close());
  return rx;
}

/** `workers/main.ts` in its own process, configured by `env`; resolves once it listens. */
async function startProcess(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; out: () => string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "workers/main.ts"], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  cleanups.push(() => void (child.exitCode === null && child.kill("SIGKILL")));
  await eventually(() => out.includes("switchyard listening"), 40_000, "the process to listen");
  return { child, out: () => out };
}

it("a process configured by OTEL_* alone exports one trace per hook, from its ingest to each attempt (http/json)", async () => {
  const otlp = await collector();
  const rx = await receiver(500); // attempt 1 fails, attempt 2 delivers
  const dir = mkdtempSync(join(tmpdir(), "sy-tracing-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const prefix = `t${randomBytes(5).toString("hex")}`;
  const redis = new Redis(REDIS_URL);
  cleanups.push(async () => {
    await deletePrefix(redis, prefix);
    redis.disconnect();
  });
  const configPath = join(dir, "switchyard.yaml");
  writeFileSync(
    configPath,
    JSON.stringify({
      redis: { url: REDIS_URL, prefix },
      http: { port: 0, host: "127.0.0.1" },
      dispatch: { retry: { base_ms: 20, max_ms: 100, max_attempts: 5 } },
      sinks: { out: { type: "http", url: `${rx.url}/in` } },
      sources: { src: { verify: { type: "none" }, sinks: ["out"] } },
    }),
  );
  const proc = await startProcess({
    SWITCHYARD_CONFIG: configPath,
    LOG_LEVEL: "info",
    OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    OTEL_SERVICE_NAME: "switchyard-under-test",
    OTEL_BSP_SCHEDULE_DELAY: "100",
  });
  const listening = proc
    .out()
    .split("\n")
    .find((l) => l.includes("switchyard listening"));
  const { port } = JSON.parse(listening!) as { port: number };

  const caller = callerTrace();
  const res = await fetch(`http://127.0.0.1:${port}/webhooks/src`, {
    method: "POST",
    body: '{"n":1}',
    headers: { "content-type": "application/json", traceparent: caller.traceparent },
  });
  expect(res.status).toBe(202);
  const { id } = (await res.json()) as { id: string };
  const [first, second] = await rx.waitForRequests(2, 15_000);

  const spans = await otlp.waitFor((all) => inTrace(all, caller.traceId).length >= 3);
  const trace = inTrace(spans, caller.traceId);
  const ingest = trace.find((s) => s.kind === SERVER)!;
  expect(ingest).toMatchObject({
    name: "POST /webhooks/:source",
    parentSpanId: caller.spanId,
    service: "switchyard-under-test",
    attributes: expect.objectContaining({
      "http.route": "/webhooks/:source",
      "http.response.status_code": 202,
      "switchyard.hook_id": id,
      "switchyard.outcome": "accepted",
    }),
  });
  const attempts = trace.filter((s) => s.kind === CLIENT);
  expect(attempts.map((a) => a.attributes["switchyard.attempt"]).sort()).toEqual([1, 2]);
  const [failed, delivered] = [1, 2].map((n) =>
    attempts.find((a) => a.attributes["switchyard.attempt"] === n)!,
  );
  for (const a of [failed!, delivered!]) {
    expect(a.parentSpanId).toBe(ingest.spanId);
    expect(a.name).toBe("deliver out");
    expect(a.attributes).toMatchObject({
      "switchyard.hook_id": id,
      "switchyard.sink": "out",
      "switchyard.source": "src",
    });
  }
  expect(failed!.attributes).toMatchObject({
    "switchyard.result": "transient",
    "switchyard.next": "retrying",
    "http.response.status_code": 500,
  });
  expect(failed!.statusCode).toBe(ERROR);
  expect(delivered!.attributes).toMatchObject({ "switchyard.result": "ok", "switchyard.next": "delivered" });
  // Each request the sink's receiver saw is the child of the attempt that sent it.
  const sent = (r: ReceivedRequest | undefined) => parentIn(r?.headers.traceparent, caller.traceId);
  expect(sent(first)).toBe(failed!.spanId);
  expect(sent(second)).toBe(delivered!.spanId);
  expect(otlp.contentTypes.every((t) => t.startsWith("application/json"))).toBe(true);

  // The attempt's log lines carry the trace id (the line is written once the outcome is recorded,
  // which may be after the span was exported).
  const deliveredLine = await eventually(
    () =>
      proc
        .out()
        .split("\n")
        .find((l) => l.includes('"msg":"delivered"')),
    10_000,
    "the delivered log line",
  );
  expect(JSON.parse(deliveredLine)).toMatchObject({ hook_id: id, trace_id: caller.traceId });

  const exited = new Promise<number | null>((r) => proc.child.once("exit", (code) => r(code)));
  proc.child.kill("SIGTERM");
  expect(await exited).toBe(0);
}, 90_000);

it("the AMQP message and the HTTP sink's request carry their own attempt's traceparent (http/protobuf)", async () => {
  const otlp = await collector();
  const rx = await receiver();
  const rabbit = await rabbitFixture("tracing");
  cleanups.push(() => rabbit.cleanup());
  await rabbit.declareExchange();
  await rabbit.bindQueue("#");
  const gw = await startTestGateway(
    testConfig({
      sinks: {
        web: { type: "http", url: `${rx.url}/in` },
        bus: { type: "amqp", url: RABBIT_URL, exchange: rabbit.exchange, routing_key: "{source}" },
      },
      sources: { src: { verify: { type: "none" }, sinks: ["web", "bus"] } },
    }),
    {
      otelEnv: { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${otlp.url}/v1/traces`, OTEL_BSP_SCHEDULE_DELAY: "50" },
    },
  );
  cleanups.push(() => gw.stop());

  const caller = callerTrace();
  const res = await fetch(`${gw.url}/webhooks/src`, {
    method: "POST",
    body: "{}",
    headers: { traceparent: caller.traceparent },
  });
  const { id } = (await res.json()) as { id: string };
  await waitForState(gw, id, "web", "delivered");
  await waitForState(gw, id, "bus", "delivered");
  const spans = await otlp.waitFor((all) => inTrace(all, caller.traceId).length >= 3);
  const trace = inTrace(spans, caller.traceId);
  const ingest = trace.find((s) => s.kind === SERVER)!;
  const attemptTo = (sink: string) =>
    trace.find((s) => s.kind === CLIENT && s.attributes["switchyard.sink"] === sink)!;
  expect(ingest.parentSpanId).toBe(caller.spanId);
  expect(attemptTo("web").parentSpanId).toBe(ingest.spanId);
  expect(attemptTo("bus").parentSpanId).toBe(ingest.spanId);
  expect(attemptTo("bus").attributes).toMatchObject({ "switchyard.hook_id": id, "switchyard.attempt": 1 });

  const [msg] = await rabbit.drain();
  expect(parentIn(msg?.properties.headers?.traceparent as string, caller.traceId)).toBe(
    attemptTo("bus").spanId,
  );
  expect(parentIn(rx.requests[0]?.headers.traceparent, caller.traceId)).toBe(attemptTo("web").spanId);
  expect(otlp.contentTypes.length).toBeGreaterThan(0);
  expect(otlp.contentTypes.every((t) => t === "application/x-protobuf")).toBe(true);

  // The hook keeps its ingest span's context: the parent of every attempt, replays included.
  const meta = await gw.redis.hget(new Keys(gw.config.redis.prefix).hook(id as HookId), "meta");
  expect(JSON.parse(meta!).tp).toBe(`00-${caller.traceId}-${ingest.spanId}-01`);
});

it("an outbound event's attempts are children of the publish request's span, and the endpoint gets their traceparent", async () => {
  const otlp = await collector();
  const rx = await receiver();
  const gw = await startTestGateway(
    testConfig({
      outbound: { allow_private: true, timeout_ms: 2000 },
      sinks: { log: { type: "log" } },
      sources: { src: { verify: { type: "none" }, sinks: ["log"], allow_non_durable: true } },
    }),
    { otelEnv: { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_BSP_SCHEDULE_DELAY: "50" } },
  );
  cleanups.push(() => gw.stop());
  const auth = { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" };
  const created = await fetch(`${gw.url}/v1/endpoints`, {
    method: "POST",
    headers: auth,
    body: JSON.stringify({ url: `${rx.url}/hook`, event_types: ["order.*"] }),
  });
  const endpoint = (await created.json()) as { id: string };

  const caller = callerTrace();
  const published = await fetch(`${gw.url}/v1/events`, {
    method: "POST",
    headers: { ...auth, traceparent: caller.traceparent },
    body: JSON.stringify({ id: "evt_trace_1", type: "order.paid", payload: { n: 1 } }),
  });
  expect(published.status).toBe(202);
  const [request] = await rx.waitForRequests(1, 20_000);

  const spans = await otlp.waitFor((all) => inTrace(all, caller.traceId).length >= 2);
  const trace = inTrace(spans, caller.traceId);
  const publish = trace.find((s) => s.kind === SERVER)!;
  const attempt = trace.find((s) => s.kind === CLIENT)!;
  expect(publish).toMatchObject({ name: "POST /v1/events", parentSpanId: caller.spanId });
  expect(publish.attributes["switchyard.event_id"]).toBe("evt_trace_1");
  expect(attempt).toMatchObject({ name: "deliver endpoint", parentSpanId: publish.spanId });
  expect(attempt.attributes).toMatchObject({
    "switchyard.event_id": "evt_trace_1",
    "switchyard.endpoint": endpoint.id,
    "switchyard.attempt": 1,
    "switchyard.result": "ok",
  });
  expect(parentIn(request?.headers.traceparent, caller.traceId)).toBe(attempt.spanId);
  // A publish refused for its body (by the route's schema, before the handler) has its span too.
  const refusedCaller = callerTrace();
  const refused = await fetch(`${gw.url}/v1/events`, {
    method: "POST",
    headers: { ...auth, traceparent: refusedCaller.traceparent },
    body: JSON.stringify({ type: "not a type", payload: 1 }),
  });
  expect(refused.status).toBe(400);
  const [refusedSpan] = inTrace(
    await otlp.waitFor((all) => inTrace(all, refusedCaller.traceId).length >= 1),
    refusedCaller.traceId,
  );
  expect(refusedSpan).toMatchObject({ name: "POST /v1/events", parentSpanId: refusedCaller.spanId });
  expect(refusedSpan!.attributes["http.response.status_code"]).toBe(400);
  await eventually(async () => {
    const rows = await fetch(`${gw.url}/v1/events/evt_trace_1/deliveries`, { headers: auth });
    const { data } = (await rows.json()) as { data: { state: string }[] };
    return data[0]?.state === "delivered";
  });
});

// One chaos run from start to end: a private AOF Redis (or a private Redis Cluster), the Procfile's
// web ×1 and worker ×2 on a config with a Standard Webhooks source delivering to an http sink and an
// AMQP sink, two outbound endpoints; signed hooks and events at a steady rate while the faults fire;
// then drain and count. The short mode (`npm test`) fires each of the four faults once; the long mode
// repeats them, and kills the web process now and then too, for as long as asked.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateSecret } from "../../../src/domain/signing.ts";
import { buildIfNeeded } from "../procfile.ts";
import { freePort } from "../rabbit.ts";
import { type AmqpRecorder, startAmqpRecorder } from "./amqp-recorder.ts";
import { type ChaosRedis, type RedisKind, startChaosRedis } from "./chaos-redis.ts";
import { AdminReader, type DrainOutcome, type Expectation, drain } from "./drain.ts";
import {
  type Injection,
  type Scheduled,
  amqpConnectionKill,
  receiverFlap,
  runFaults,
  webKill,
  workerKill,
} from "./faults.ts";
import { Cluster, type ExitRecord, waitForHttp } from "./processes.ts";
import { type ChaosReceiver, startChaosReceiver } from "./receiver.ts";
import { keepLogs } from "./kept-logs.ts";
import { type Row, rowOf } from "./report.ts";
import { DEFAULT_STEADY, type SteadySender, inboundSender, outboundPublisher } from "./traffic.ts";

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export interface ChaosOptions {
  /** "short": each fault once, spread over the duration; "long": every fault again and again. */
  readonly mode: "short" | "long";
  /**
   * "single": one redis-server with an fsync-always AOF, the Redis fault a crash and restart on it;
   * "cluster": a 6-node Redis Cluster with `wait_replicas: 1`, the Redis fault a master failover.
   */
  readonly redis?: RedisKind;
  /** How long traffic flows with faults firing (after a warm-up). */
  readonly durationMs: number;
  readonly inboundPerS: number;
  readonly outboundPerS: number;
  readonly drainDeadlineMs: number;
  readonly log?: (line: string) => void;
}

export interface ChaosResult {
  readonly rows: readonly Row[];
  readonly injections: readonly Injection[];
  readonly drained: DrainOutcome;
  readonly expectations: readonly Expectation[];
  readonly exits: readonly ExitRecord[];
  readonly badSignatures: number;
  readonly senders: ReadonlyMap<string, SteadySender>;
  readonly receiver: ChaosReceiver;
  readonly amqp: AmqpRecorder;
  readonly redisKind: RedisKind;
  /** Moments a write to Redis (on a cluster, to one of its masters) failed, seen by a probe of the harness's own. */
  readonly redisFailures: readonly number[];
  /** What Redis held once drained (AOF size and memory; on a cluster, keys and memory per master). */
  readonly redisSizes: string;
  /** When the faults started: injections' `atMs` count from here. */
  readonly faultsStartedAt: number;
  /** The run's config, logs and AOF directory (deleted by `cleanup`). */
  readonly dir: string;
  cleanup(): void;
  /** Move the logs out of the temp dir (which the test run removes) and return where they are. */
  keepLogs(): string;
}

const TOKEN = `chaos-${randomBytes(12).toString("hex")}`;

function schedule(mode: ChaosOptions["mode"], d: number, parts: Parts): Scheduled[] {
  if (mode === "short") {
    return [
      { fault: workerKill(parts.cluster), atMs: 0.1 * d },
      { fault: parts.redis.fault(2000), atMs: 0.25 * d },
      { fault: amqpConnectionKill(parts.amqpSink), atMs: 0.5 * d },
      { fault: receiverFlap(parts.receiver, 4500), atMs: 0.6 * d },
    ];
  }
  return [
    { fault: workerKill(parts.cluster), atMs: 3000, everyMs: 8000 },
    { fault: amqpConnectionKill(parts.amqpSink), atMs: 8000, everyMs: 20_000 },
    { fault: receiverFlap(parts.receiver, 6000), atMs: 12_000, everyMs: 30_000 },
    { fault: parts.redis.fault(3000), atMs: 20_000, everyMs: parts.redis.everyMs },
    { fault: webKill(parts.cluster, parts.url), atMs: 35_000, everyMs: 50_000 },
  ];
}

interface Parts {
  readonly cluster: Cluster;
  readonly redis: ChaosRedis;
  readonly receiver: ChaosReceiver;
  readonly amqpSink: string;
  readonly url: string;
}

function configFor(redis: ChaosRedis, rx: ChaosReceiver, amqp: AmqpRecorder, names: Names): unknown {
  return {
    log_level: "info",
    redis: { ...redis.config.redis, prefix: "chaos" },
    durability: redis.config.durability,
    http: { host: "127.0.0.1" },
    admin: { tokens: [TOKEN] },
    retention_s: 3600,
    dispatch: {
      concurrency: 16,
      attempt_timeout_ms: 3000,
      lock_ms: 5000,
      retry: { base_ms: 200, max_ms: 2000, max_attempts: 40, max_elapsed_ms: 600_000 },
      breaker: { failures: 5, open_ms: 1000, max_open_ms: 4000 },
    },
    recovery: { interval_ms: 2000, stale_after_ms: 5000 },
    outbound: { allow_private: true, timeout_ms: 1500 },
    sinks: {
      [names.httpSink]: { type: "http", url: `${rx.url}/in`, timeout_ms: 1500, secret: names.sinkSecret },
      [names.amqpSink]: { type: "amqp", url: amqp.url, exchange: amqp.exchange, routing_key: "{source}" },
    },
    sources: {
      provider: {
        verify: { type: "standard_webhooks", secrets: [names.sourceSecret] },
        dedup: "standard_webhooks",
        dedup_ttl_s: 3600,
        sinks: [names.httpSink, names.amqpSink],
      },
    },
  };
}

interface Names {
  readonly httpSink: string;
  readonly amqpSink: string;
  readonly sourceSecret: string;
  readonly sinkSecret: string;
}

async function registerEndpoints(url: string, rx: ChaosReceiver): Promise<Map<string, string>> {
  const labels = new Map<string, string>();
  for (const label of ["a", "b"]) {
    const res = await fetch(`${url}/v1/endpoints`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ url: `${rx.url}/out/${label}`, event_types: ["chaos.*"] }),
    });
    const json = (await res.json()) as { id?: string; secret?: string };
    if (res.status !== 201 || !json.id || !json.secret)
      throw new Error(`POST /v1/endpoints: ${res.status} ${JSON.stringify(json)}`);
    labels.set(json.id, label);
    rx.trust(`/out/${label}`, json.secret);
  }
  return labels;
}

async function until(what: string, timeoutMs: number, check: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(100);
  }
}

export async function runChaos(opts: ChaosOptions): Promise<ChaosResult> {
  const log = opts.log ?? (() => undefined);
  const dir = mkdtempSync(join(tmpdir(), "sy-chaos-"));
  const teardown: (() => Promise<unknown>)[] = [];
  try {
    log(`build: ${await buildIfNeeded(["web", "worker"])}`);
    const redis = await startChaosRedis(opts.redis ?? "single");
    teardown.push(() => redis.stop());
    redis.probe.start();
    log(`redis: ${redis.description}`);
    const receiver = await startChaosReceiver();
    teardown.push(() => receiver.close());
    const amqp = await startAmqpRecorder();
    teardown.push(() => amqp.close());
    const suffix = randomBytes(4).toString("hex");
    const names: Names = {
      httpSink: `forward_${suffix}`,
      amqpSink: `bus_${suffix}`,
      sourceSecret: generateSecret(),
      sinkSecret: generateSecret(),
    };
    receiver.trust("/in", names.sinkSecret);
    const configFile = join(dir, "switchyard.yaml");
    writeFileSync(configFile, JSON.stringify(configFor(redis, receiver, amqp, names), null, 2));

    const webPort = await freePort();
    const cluster = new Cluster({ configFile, webPort, workers: 2, logDir: dir });
    teardown.push(() => cluster.stop());
    cluster.start();
    const url = `http://127.0.0.1:${webPort}`;
    await waitForHttp(`${url}/readyz`, 60_000);
    const labels = await registerEndpoints(url, receiver);
    log(`web ${url}, workers ${cluster.workers.map((w) => w.pid).join(", ")}`);

    const steady = (ratePerS: number) => ({ ...DEFAULT_STEADY, ratePerS });
    const inbound = inboundSender({
      url,
      source: "provider",
      secret: names.sourceSecret,
      prefix: `in-${suffix}`,
      steady: steady(opts.inboundPerS),
    });
    const outbound = outboundPublisher({
      url,
      token: TOKEN,
      prefix: `ev-${suffix}`,
      labels,
      steady: steady(opts.outboundPerS),
    });
    inbound.sender.start();
    outbound.sender.start();
    const admin = new AdminReader(url, TOKEN);
    const endpointOf = new Map([...labels].map(([id, label]) => [label, id]));
    const expectations: Expectation[] = [
      {
        label: `inbound → http sink`,
        accepted: inbound.accepted,
        arrivals: receiver.inbound,
        view: (_key, hookId) => admin.hookDelivery(hookId, names.httpSink),
      },
      {
        label: `inbound → amqp sink`,
        accepted: inbound.accepted,
        arrivals: amqp.arrivals,
        view: (_key, hookId) => admin.hookDelivery(hookId, names.amqpSink),
      },
      {
        label: `outbound → 2 endpoints`,
        accepted: outbound.accepted,
        arrivals: receiver.outbound,
        view: (key, eventId) => admin.eventDelivery(eventId, endpointOf.get(key.split("/")[0]!) ?? "?"),
      },
    ];

    // Faults start once every destination has seen traffic: the workers are up and delivering.
    await until("first deliveries to every destination", 60_000, () =>
      expectations.every((e) => e.arrivals.unique > 0),
    );
    log(`traffic flowing; faults for ${opts.durationMs} ms (${opts.mode} mode)`);
    const parts: Parts = { cluster, redis, receiver, amqpSink: names.amqpSink, url };
    const faultsStartedAt = Date.now();
    const injections = await runFaults(schedule(opts.mode, opts.durationMs, parts), opts.durationMs, (i) =>
      log(`  ${(i.atMs / 1000).toFixed(1)} s  ${i.fault}: ${i.error ? `FAILED ${i.error}` : i.detail}`),
    );
    await Promise.all([inbound.sender.stop(), outbound.sender.stop()]);
    log(`traffic stopped; draining (deadline ${opts.drainDeadlineMs} ms)`);
    const drained = await drain(expectations, { deadlineMs: opts.drainDeadlineMs, onPoll: log });
    // Late duplicates (an attempt whose worker died after the answer) still land after the last row ends.
    await sleep(1000);
    log(`drained: ${drained.drained} in ${drained.tookMs} ms`);

    const result: ChaosResult = {
      rows: expectations.map((e) => rowOf(e, drained)),
      injections,
      drained,
      expectations,
      exits: cluster.exits,
      badSignatures: receiver.badSignatures.inbound + receiver.badSignatures.outbound,
      senders: new Map([
        ["inbound", inbound.sender],
        ["outbound", outbound.sender],
      ]),
      receiver,
      amqp,
      redisKind: redis.kind,
      redisFailures: redis.probe.failures,
      redisSizes: await redis.sizes(),
      faultsStartedAt,
      dir,
      cleanup: () => rmSync(dir, { recursive: true, force: true }),
      keepLogs: () => keepLogs(dir),
    };
    return result;
  } catch (err) {
    // No result to keep them through: keep the logs (once the processes are stopped), and say where.
    for (const step of teardown.splice(0).reverse()) await step().catch(() => undefined);
    const kept = keepLogs(dir);
    throw new Error(`${(err as Error).message} (processes' logs kept in ${kept})`, { cause: err });
  } finally {
    for (const step of teardown.reverse()) await step().catch(() => undefined);
  }
}

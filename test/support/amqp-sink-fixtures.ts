// Helpers shared by the AMQP sink integration tests: per-test RabbitMQ fixtures and sinks that are torn down
// after each test, hook deliveries with known fields, and the connection-cut-mid-flow scenario, so the
// queue-content, broker-answer and flow test files exercise the sink the same way.
import { createHash, randomBytes } from "node:crypto";
import { afterEach, expect } from "vitest";
import type { AmqpSinkConfig } from "../../src/sinks/amqp/config.ts";
import type { DeliveryResult } from "../../src/domain/error-class.ts";
import type { ClaimRef, Delivery } from "../../src/domain/hook.ts";
import { idempotencyKey } from "../../src/domain/hook.ts";
import { newId } from "../../src/domain/ids.ts";
import { silentLogger } from "../../src/observability/logger.ts";
import { createAmqpSink } from "../../src/sinks/amqp/amqp-sink.ts";
import type { AmqpSink } from "../../src/sinks/amqp/amqp-sink.ts";
import type { QueueMessageV1 } from "../../src/sinks/queue-message.ts";
import { RABBIT_URL, rabbitFixture, rabbitProxy, uniqueName } from "./rabbit.ts";
import type { RabbitFixture, TcpProxy } from "./rabbit.ts";

/** Teardown steps for the running test, run in reverse order once it ends (see `useCleanups`). */
export const cleanups: Array<() => Promise<unknown>> = [];

/** Register the `afterEach` that runs `cleanups`; call once at the top level of every test file using these. */
export function useCleanups(): void {
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
}

/** A throwaway exchange and queue for this test, deleted after it. */
export async function fixture(label: string): Promise<RabbitFixture> {
  const fx = await rabbitFixture(label);
  cleanups.push(() => fx.cleanup());
  return fx;
}

/** An AMQP sink on the test broker (routing key `{source}.{tenant}` unless overridden), closed after the test. */
export function sink(
  name: string,
  overrides: Partial<AmqpSinkConfig> & Pick<AmqpSinkConfig, "exchange">,
): AmqpSink {
  const config: AmqpSinkConfig = {
    type: "amqp",
    url: RABBIT_URL,
    routing_key: "{source}.{tenant}",
    max_in_flight: 1000,
    ...overrides,
  };
  const s = createAmqpSink(name, config, { logger: silentLogger(), defaultClaimCheckBytes: 65_536 });
  cleanups.push(() => s.close());
  return s;
}

/** A delivery of a fresh stripe hook for tenant `acme` (pass `tenant: undefined` for none) to sink `bus`. */
export function delivery(
  opts: { body?: Buffer; tenant?: string; claim?: ClaimRef; attempt?: number } = {},
): Delivery {
  const body = opts.body ?? Buffer.from(JSON.stringify({ n: Math.random() }));
  const tenant = "tenant" in opts ? opts.tenant : "acme";
  const dedupKey = randomBytes(8).toString("hex");
  return {
    hook: {
      id: newId("hk"),
      source: "stripe",
      tenant,
      receivedAt: Date.UTC(2026, 0, 2, 3, 4, 5, 678),
      contentType: "application/json",
      headers: { "stripe-signature": "t=1,v1=abc", "content-type": "application/json" },
      body,
      sha256: createHash("sha256").update(body).digest("hex"),
      dedupKey,
      idempotencyKey: idempotencyKey(tenant, "stripe", dedupKey),
      sinks: ["bus"],
    },
    sink: "bus",
    attempt: opts.attempt ?? 1,
    replayId: undefined,
    claim: opts.claim,
  };
}

/** An attempt deadline for `deliver`, generous so only a hang trips it. */
export const signal = (ms = 10_000): AbortSignal => AbortSignal.timeout(ms);
/** The queue message a sink published, as the consumer would read it. */
export const parse = (content: Buffer): QueueMessageV1 => JSON.parse(content.toString()) as QueueMessageV1;

/**
 * At least 1000 deliveries, 50 at a time, through a delaying proxy; `cut` runs alongside the flow. Checks that
 * every delivery resolved, the failures are transient and include publishes cut off unconfirmed, every ok is on
 * the queue, and retrying the failures (as dispatch would) gets exactly the hooks sent onto the queue.
 */
export async function cutMidFlow(opts: {
  label: string;
  delayMs: number;
  afterConnect: (sinkName: string) => Promise<void>;
  cut: (proxy: TcpProxy, progress: () => number) => Promise<void>;
}): Promise<void> {
  const fx = await fixture(opts.label);
  await fx.declareExchange();
  await fx.bindQueue("#");
  const proxy = await rabbitProxy(opts.delayMs);
  cleanups.push(() => proxy.close());
  const name = uniqueName(opts.label);
  const s = sink(name, { exchange: fx.exchange, url: proxy.url });
  const ds: Delivery[] = [delivery()];
  const okIds = new Set<string>();
  const failed: Delivery[] = [];
  const reasons: string[] = [];
  const record = (d: Delivery, r: DeliveryResult): void => {
    if (r.ok) okIds.add(d.hook.id);
    else {
      failed.push(d);
      reasons.push(`${r.failure.kind}: ${r.failure.reason}`);
    }
  };

  // The first delivery opens the connection, so the test can find it on the broker.
  record(ds[0] as Delivery, await s.deliver(ds[0] as Delivery, signal()));
  await opts.afterConnect(name);

  let cutDone = false;
  const cutting = opts
    .cut(proxy, () => okIds.size + failed.length)
    .finally(() => {
      cutDone = true;
    });
  // Publishing goes on until the cut has happened and 100 more deliveries have followed it. With a fixed count
  // held back until the cut, a slow cut (rabbitmqctl on a loaded machine takes seconds to close and seconds more to
  // exit) landed on an idle connection: nothing was unconfirmed, nothing failed, and CI went red.
  let afterCut = 0;
  const worker = async (): Promise<void> => {
    while (ds.length < 1000 || !cutDone || afterCut < 100) {
      if (cutDone) afterCut++;
      const d = delivery();
      ds.push(d);
      record(d, await s.deliver(d, signal(15_000)));
    }
  };
  await Promise.all([...Array.from({ length: 50 }, worker), cutting]);

  expect(okIds.size + failed.length).toBe(ds.length);
  expect(reasons.every((r) => r.startsWith("transient: "))).toBe(true);
  expect(
    reasons.filter((r) => r.includes("channel closed before the broker confirmed")).length,
  ).toBeGreaterThan(0);

  // An ok means the broker confirmed it, so it is on the queue already.
  const firstPass = new Set((await fx.drain()).map((m) => m.properties.messageId as string));
  for (const id of okIds) expect(firstPass.has(id)).toBe(true);

  // Retry the failures as dispatch would, until all are ok.
  let pending = failed;
  for (let round = 0; pending.length > 0 && round < 50; round++) {
    const rs = await Promise.all(pending.map((d) => s.deliver(d, signal())));
    pending = pending.filter((_, i) => !rs[i]?.ok);
    if (pending.length > 0) await sleep(50);
  }
  expect(pending).toHaveLength(0);
  expect(s.stats().connections).toBeGreaterThanOrEqual(2);
  expect(s.stats().unconfirmed).toBe(0);

  const all = new Set([...firstPass, ...(await fx.drain()).map((m) => m.properties.messageId as string)]);
  expect(all.size).toBe(ds.length);
  expect(all).toEqual(new Set(ds.map((d) => d.hook.id)));
}

/** Wait (polling every 2 ms) until `cond` holds; throws after `timeoutMs`. */
export async function until(cond: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await sleep(2);
  }
}

/** Resolve after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

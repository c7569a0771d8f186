// The AMQP sink against the real RabbitMQ: what lands on a queue, how broker answers map to results, and that
// a connection cut mid-flow loses nothing once failed deliveries are retried.
import { createHash, randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import type { AmqpSinkConfig } from "../../src/config/schema.ts";
import type { DeliveryResult } from "../../src/domain/error-class.ts";
import type { ClaimRef, Delivery } from "../../src/domain/hook.ts";
import { idempotencyKey } from "../../src/domain/hook.ts";
import { newId } from "../../src/domain/ids.ts";
import { silentLogger } from "../../src/observability/logger.ts";
import { createAmqpSink } from "../../src/sinks/amqp/amqp-sink.ts";
import type { AmqpSink } from "../../src/sinks/amqp/amqp-sink.ts";
import { PUBLISH_ID_HEADER } from "../../src/sinks/amqp/publisher.ts";
import type { QueueMessageV1 } from "../../src/sinks/queue-message.ts";
import {
  RABBIT_URL,
  closeConnection,
  connectionPids,
  freePort,
  rabbitFixture,
  rabbitProxy,
  silentBroker,
  uniqueName,
} from "../support/rabbit.ts";
import type { RabbitFixture, TcpProxy } from "../support/rabbit.ts";

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function fixture(label: string): Promise<RabbitFixture> {
  const fx = await rabbitFixture(label);
  cleanups.push(() => fx.cleanup());
  return fx;
}

function sink(name: string, overrides: Partial<AmqpSinkConfig> & Pick<AmqpSinkConfig, "exchange">): AmqpSink {
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

function delivery(
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

const signal = (ms = 10_000): AbortSignal => AbortSignal.timeout(ms);
const parse = (content: Buffer): QueueMessageV1 => JSON.parse(content.toString()) as QueueMessageV1;

describe("amqp sink: what lands on the queue", () => {
  it("publishes every queue-message field, the headers and the rendered routing key", async () => {
    const fx = await fixture("fields");
    await fx.declareExchange();
    await fx.bindQueue("#");
    const s = sink(uniqueName("fields"), { exchange: fx.exchange, routing_key: "hooks.{source}.{tenant}" });
    const body = Buffer.concat([randomBytes(64), Buffer.from([0xff, 0xfe, 0x00, 0x80])]);
    const d = delivery({ body, attempt: 3 });

    expect(await s.deliver(d, signal())).toEqual({ ok: true });

    const [msg, ...rest] = await fx.drain();
    expect(rest).toHaveLength(0);
    expect(msg).toBeDefined();
    if (!msg) return;
    expect(msg.fields.routingKey).toBe("hooks.stripe.acme");
    expect(msg.properties.messageId).toBe(d.hook.id);
    expect(msg.properties.contentType).toBe("application/json");
    expect(msg.properties.deliveryMode).toBe(2);
    expect(msg.properties.headers).toMatchObject({
      "x-switchyard-id": d.hook.id,
      "x-switchyard-source": "stripe",
      "x-switchyard-tenant": "acme",
      "x-switchyard-idempotency-key": d.hook.idempotencyKey,
      "x-switchyard-attempt": "3",
    });
    const m = parse(msg.content);
    expect(m).toEqual({
      id: d.hook.id,
      source: "stripe",
      tenant: "acme",
      received_at: "2026-01-02T03:04:05.678Z",
      content_type: "application/json",
      headers: d.hook.headers,
      sha256: d.hook.sha256,
      idempotency_key: d.hook.idempotencyKey,
      replay_id: null,
      body_base64: body.toString("base64"),
    });
    expect(Buffer.from(m.body_base64 ?? "", "base64").equals(body)).toBe(true);
  });

  it("sends the claim instead of the body above claim_check_bytes, and renders a missing tenant as -", async () => {
    const fx = await fixture("claim");
    await fx.declareExchange();
    await fx.bindQueue("#");
    const s = sink(uniqueName("claim"), { exchange: fx.exchange, claim_check_bytes: 16 });
    const big = randomBytes(17);
    const claim: ClaimRef = { id: "cl_1", url: "http://gw.local/v1/claims/cl_1", sha256: "x", size: 17 };
    const withClaim = delivery({ body: big, claim, tenant: undefined });
    const small = delivery({ body: Buffer.from("0123456789abcdef"), claim });
    const bigNoClaim = delivery({ body: big });

    for (const d of [withClaim, small, bigNoClaim])
      expect(await s.deliver(d, signal())).toEqual({ ok: true });

    const byId = new Map((await fx.drain()).map((msg) => [msg.properties.messageId as string, msg]));
    const c = byId.get(withClaim.hook.id);
    expect(c?.fields.routingKey).toBe("stripe.-");
    expect(c?.properties.headers?.["x-switchyard-tenant"]).toBeUndefined();
    const cm = parse(c?.content ?? Buffer.alloc(0));
    expect(cm.claim).toBe(claim.url);
    expect(cm.body_base64).toBeUndefined();
    expect(cm.tenant).toBeNull();
    expect(cm.sha256).toBe(withClaim.hook.sha256);
    expect(parse(byId.get(small.hook.id)?.content ?? Buffer.alloc(0)).body_base64).toBe(
      Buffer.from("0123456789abcdef").toString("base64"),
    );
    expect(parse(byId.get(bigNoClaim.hook.id)?.content ?? Buffer.alloc(0)).body_base64).toBe(
      big.toString("base64"),
    );
  });
});

describe("amqp sink: broker answers", () => {
  it("a missing exchange is permanent (config); once declared, the same sink delivers", async () => {
    const fx = await fixture("missing");
    const s = sink(uniqueName("missing"), { exchange: fx.exchange });

    const first = await s.deliver(delivery(), signal());
    expect(first).toMatchObject({ ok: false, failure: { kind: "permanent", config: true } });
    if (!first.ok) expect(first.failure.reason).toMatch(/NOT[-_]FOUND/);

    await fx.declareExchange();
    await fx.bindQueue("#");
    const d = delivery();
    expect(await s.deliver(d, signal())).toEqual({ ok: true });
    expect((await fx.drain()).map((m) => m.properties.messageId as string)).toEqual([d.hook.id]);
  });

  it("an exchange deleted under an open channel: the publish is permanent (config), the next one recovers", async () => {
    const fx = await fixture("deleted");
    await fx.declareExchange();
    await fx.bindQueue("#");
    const s = sink(uniqueName("deleted"), { exchange: fx.exchange });
    expect(await s.deliver(delivery(), signal())).toEqual({ ok: true });

    await fx.channel.deleteExchange(fx.exchange);
    expect(await s.deliver(delivery(), signal())).toMatchObject({
      ok: false,
      failure: { kind: "permanent", config: true },
    });

    await fx.declareExchange();
    await fx.bindQueue("#");
    expect(await s.deliver(delivery(), signal())).toEqual({ ok: true });
    expect(await fx.count()).toBe(2);
  });

  it("unroutable (exchange exists, nothing bound) is transient, and other routing keys are unaffected", async () => {
    const fx = await fixture("unroutable");
    await fx.declareExchange();
    await fx.bindQueue("stripe.routed");
    const s = sink(uniqueName("unroutable"), { exchange: fx.exchange });

    const results = await Promise.all(
      [delivery({ tenant: "nobody" }), delivery({ tenant: "routed" }), delivery({ tenant: "nobody" })].map(
        (d) => s.deliver(d, signal()),
      ),
    );
    expect(results[1]).toEqual({ ok: true });
    for (const r of [results[0], results[2]]) {
      expect(r).toMatchObject({ ok: false, failure: { kind: "transient" } });
      if (r && !r.ok)
        expect(r.failure.reason).toMatch(/unroutable: no queue bound for routing key "stripe\.nobody"/);
    }
    const msgs = await fx.drain();
    expect(msgs).toHaveLength(1);
    expect(msgs[0]?.properties.headers?.[PUBLISH_ID_HEADER]).toBeDefined();
  });

  it("a refused login is permanent (config)", async () => {
    const s = sink(uniqueName("badpw"), {
      exchange: "amq.topic",
      url: "amqp://guest:wrong-password@127.0.0.1:5672",
    });
    const r = await s.deliver(delivery(), signal());
    expect(r).toMatchObject({ ok: false, failure: { kind: "permanent", config: true } });
    if (!r.ok) expect(r.failure.reason).not.toContain("wrong-password");
  });

  it("a down broker: every delivery resolves transient, and connect attempts back off", async () => {
    const closedPort = await freePort();
    const s = sink(uniqueName("down"), { exchange: "x", url: `amqp://guest:guest@127.0.0.1:${closedPort}` });
    const t0 = Date.now();
    const results: DeliveryResult[] = [];
    for (let i = 0; i < 20; i++) results.push(await s.deliver(delivery(), signal()));

    expect(results.every((r) => !r.ok && r.failure.kind === "transient")).toBe(true);
    // 100 ms then 200 ms are sat out; after that, deliveries fail fast until the next attempt is due.
    expect(s.stats().connectAttempts).toBe(3);
    expect(Date.now() - t0).toBeLessThan(1000);
    const last = results.at(-1);
    if (last && !last.ok) expect(last.failure.reason).toMatch(/ECONNREFUSED.*next connect attempt in \d+ ms/);
  });

  it("an aborted delivery resolves transient promptly even when the broker never answers", async () => {
    const blackHole = await silentBroker();
    cleanups.push(() => blackHole.close());
    const s = sink(uniqueName("abort"), { exchange: "x", url: blackHole.url });
    const t0 = Date.now();
    const r = await s.deliver(delivery(), AbortSignal.timeout(150));
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(r).toMatchObject({ ok: false, failure: { kind: "transient" } });
    if (!r.ok) expect(r.failure.reason).toMatch(/^aborted while/);
  });
});

describe("amqp sink: flow", () => {
  it("max_in_flight bounds unconfirmed publishes; the rest wait for a slot", async () => {
    const fx = await fixture("inflight");
    await fx.declareExchange();
    await fx.bindQueue("#");
    const s = sink(uniqueName("inflight"), { exchange: fx.exchange, max_in_flight: 5 });
    let sawWaiting = 0;
    const poll = setInterval(() => {
      sawWaiting = Math.max(sawWaiting, s.stats().waitingForSlot);
    }, 1);
    const results = await Promise.all(Array.from({ length: 50 }, () => s.deliver(delivery(), signal())));
    clearInterval(poll);

    expect(results.every((r) => r.ok)).toBe(true);
    expect(s.stats().peakUnconfirmed).toBe(5);
    expect(s.stats().unconfirmed).toBe(0);
    expect(sawWaiting).toBeGreaterThan(0);
    expect(await fx.count()).toBe(50);
  });

  it("batching: 200 deliveries all arrive, each with its own ok, in fewer publishes rounds than deliveries", async () => {
    const fx = await fixture("batch");
    await fx.declareExchange();
    await fx.bindQueue("#");
    const s = sink(uniqueName("batch"), { exchange: fx.exchange, batch: { max: 50, max_delay_ms: 5 } });
    const ds = Array.from({ length: 200 }, () => delivery());
    const results = await Promise.all(ds.map((d) => s.deliver(d, signal())));

    expect(results.filter((r) => r.ok)).toHaveLength(200);
    expect(s.stats().batches).toBeGreaterThanOrEqual(4);
    expect(s.stats().batches).toBeLessThan(20);
    const ids = new Set((await fx.drain()).map((m) => m.properties.messageId as string));
    expect(ids).toEqual(new Set(ds.map((d) => d.hook.id)));
  });

  it("batching keeps per-delivery answers: an unroutable message in a batch fails alone", async () => {
    const fx = await fixture("batchmix");
    await fx.declareExchange();
    await fx.bindQueue("stripe.routed");
    const s = sink(uniqueName("batchmix"), { exchange: fx.exchange, batch: { max: 10, max_delay_ms: 20 } });
    const ds = Array.from({ length: 10 }, (_, i) => delivery({ tenant: i % 3 === 0 ? "nobody" : "routed" }));
    const results = await Promise.all(ds.map((d) => s.deliver(d, signal())));

    results.forEach((r, i) => {
      if (i % 3 === 0) expect(r).toMatchObject({ ok: false, failure: { kind: "transient" } });
      else expect(r).toEqual({ ok: true });
    });
    expect(s.stats().batches).toBe(1);
    expect(await fx.count()).toBe(6);
  });

  it("a broker-side connection close mid-flow: nothing hangs, nothing is ok without a confirm, retries deliver all 1000", async () => {
    let pid = "";
    await cutMidFlow({
      label: "brokerclose",
      // 100 ms of network latency keeps ~50 publishes unconfirmed at any moment, so the close lands on them.
      delayMs: 100,
      afterConnect: async (name) => {
        const pids = await connectionPids(`switchyard/${name}`);
        expect(pids).toHaveLength(1);
        pid = pids[0] ?? "";
      },
      cut: () => closeConnection(pid),
    });
  });

  it("a dropped socket mid-flow (no AMQP close): same guarantees", async () => {
    await cutMidFlow({
      label: "sockdrop",
      delayMs: 20,
      afterConnect: async () => undefined,
      cut: async (proxy, progress) => {
        await until(() => progress() >= 300);
        proxy.cutAll();
      },
    });
  });
});

/**
 * 1000 deliveries, 50 at a time, through a delaying proxy; `cut` runs alongside the flow. Checks that every
 * delivery resolved, the failures are transient and include publishes cut off unconfirmed, every ok is on the
 * queue, and retrying the failures (as dispatch would) gets exactly the 1000 hooks onto the queue.
 */
async function cutMidFlow(opts: {
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
  const ds = Array.from({ length: 1000 }, () => delivery());
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
  let next = 1;
  const worker = async (): Promise<void> => {
    while (next < ds.length) {
      // Keep the last 100 back until the cut has happened, so some deliveries always follow it.
      if (next >= 900 && !cutDone) {
        await sleep(5);
        continue;
      }
      const d = ds[next++] as Delivery;
      record(d, await s.deliver(d, signal(15_000)));
    }
  };
  await Promise.all([...Array.from({ length: 50 }, worker), cutting]);

  expect(okIds.size + failed.length).toBe(1000);
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
  expect(all.size).toBe(1000);
  expect(all).toEqual(new Set(ds.map((d) => d.hook.id)));
}

async function until(cond: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await sleep(2);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

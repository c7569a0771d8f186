// The AMQP sink against the real RabbitMQ: what lands on a queue and how broker answers map to results.
// Throughput and connection cuts mid-flow are in amqp-sink-flow.test.ts.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { DeliveryResult } from "../../src/domain/error-class.ts";
import type { ClaimRef } from "../../src/domain/hook.ts";
import { PUBLISH_ID_HEADER } from "../../src/sinks/amqp/publisher.ts";
import {
  cleanups,
  delivery,
  fixture,
  parse,
  signal,
  sink,
  useCleanups,
} from "../support/amqp-sink-fixtures.ts";
import { freePort, silentBroker, uniqueName } from "../support/rabbit.ts";

useCleanups();

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

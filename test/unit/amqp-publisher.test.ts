// The confirm/return/close correlation of one channel, driven by a fake ConfirmChannel so that the broker's
// answers can be put in any order.
import { EventEmitter } from "node:events";
import type { ConfirmChannel } from "amqplib";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../../src/observability/logger.ts";
import { ConfirmPublisher, PUBLISH_ID_HEADER } from "../../src/sinks/amqp/publisher.ts";
import type { InFlightGauge, PublishRequest } from "../../src/sinks/amqp/publisher.ts";

type Callback = (err: unknown) => void;
interface Sent {
  exchange: string;
  routingKey: string;
  options: Record<string, any>;
  cb: Callback;
}

/** Just enough of amqplib's ConfirmChannel: publish records, and the test plays the broker. */
class FakeChannel extends EventEmitter {
  sent: Sent[] = [];
  closed = false;
  full = false;
  publish(
    exchange: string,
    routingKey: string,
    _content: Buffer,
    options: Record<string, any>,
    cb: Callback,
  ) {
    if (this.closed) throw new Error("Channel closed");
    this.sent.push({ exchange, routingKey, options, cb });
    return !this.full;
  }
  /** What amqplib does when the channel closes: every unconfirmed callback gets "channel closed". */
  closeWith(err?: Error) {
    if (err) this.emit("error", err);
    this.closed = true;
    for (const s of this.sent.splice(0)) s.cb(new Error("channel closed"));
    this.emit("close");
  }
  returnMessage(sent: Sent) {
    this.emit("return", {
      fields: { replyCode: 312, replyText: "NO_ROUTE", exchange: sent.exchange, routingKey: sent.routingKey },
      properties: { headers: sent.options.headers, messageId: sent.options.messageId },
      content: Buffer.alloc(0),
    });
  }
  async close() {
    this.closeWith();
  }
}

function setup() {
  const channel = new FakeChannel();
  const gauge: InFlightGauge = { current: 0, peak: 0 };
  const pub = new ConfirmPublisher(channel as unknown as ConfirmChannel, "hooks", gauge, silentLogger());
  return { channel, gauge, pub };
}

const req = (id: string, routingKey = "stripe.acme"): PublishRequest => ({
  routingKey,
  content: Buffer.from("{}"),
  messageId: id,
  headers: { "x-switchyard-id": id },
});
const never = new AbortController().signal;

describe("ConfirmPublisher", () => {
  it("publishes persistent, mandatory JSON with the message id and a per-publish id header", async () => {
    const { channel, pub } = setup();
    const p = pub.publish(req("hk_1"), never);
    const sent = channel.sent[0];
    expect(sent?.exchange).toBe("hooks");
    expect(sent?.options).toMatchObject({
      persistent: true,
      mandatory: true,
      contentType: "application/json",
      messageId: "hk_1",
      headers: { "x-switchyard-id": "hk_1", [PUBLISH_ID_HEADER]: "1" },
    });
    sent?.cb(null);
    expect(await p).toEqual({ ok: true });
  });

  it("a return before the ack makes that publish, and only that one, unroutable", async () => {
    const { channel, gauge, pub } = setup();
    const ps = ["hk_a", "hk_b", "hk_c"].map((id) => pub.publish(req(id, `k.${id}`), never));
    await Promise.resolve();
    const [a, b, c] = channel.sent;
    channel.returnMessage(b as Sent);
    expect(gauge.current).toBe(3);
    // Acks in a different order from the publishes.
    c?.cb(null);
    b?.cb(null);
    a?.cb(null);
    const [ra, rb, rc] = await Promise.all(ps);
    expect(ra).toEqual({ ok: true });
    expect(rc).toEqual({ ok: true });
    expect(rb).toMatchObject({ ok: false, failure: { kind: "transient" } });
    if (rb && !rb.ok) expect(rb.failure.reason).toContain('routing key "k.hk_b"');
    expect(gauge).toEqual({ current: 0, peak: 3 });
  });

  it("a nack is transient", async () => {
    const { channel, pub } = setup();
    const p = pub.publish(req("hk_1"), never);
    channel.sent[0]?.cb(new Error("message nacked"));
    expect(await p).toEqual({
      ok: false,
      failure: { kind: "transient", reason: "broker nacked the message" },
    });
  });

  it("a 404 channel close: the oldest unconfirmed is permanent (config), the rest transient, later publishes too", async () => {
    const { channel, gauge, pub } = setup();
    const ps = [
      pub.publish(req("hk_1"), never),
      pub.publish(req("hk_2"), never),
      pub.publish(req("hk_3"), never),
    ];
    await Promise.resolve();
    channel.sent[0]?.cb(null); // confirmed before the close
    channel.sent.shift();
    channel.closeWith(Object.assign(new Error("404 (NOT-FOUND) no exchange 'hooks'"), { code: 404 }));
    const [r1, r2, r3] = await Promise.all(ps);
    expect(r1).toEqual({ ok: true });
    expect(r2).toMatchObject({ ok: false, failure: { kind: "permanent", config: true } });
    expect(r3).toMatchObject({ ok: false, failure: { kind: "transient" } });
    expect(pub.isOpen).toBe(false);
    expect(await pub.publish(req("hk_4"), never)).toMatchObject({
      ok: false,
      failure: { kind: "transient" },
    });
    expect(gauge.current).toBe(0);
  });

  it("a close without a broker error (connection lost) settles everything transient", async () => {
    const { channel, pub } = setup();
    const ps = [pub.publish(req("hk_1"), never), pub.publish(req("hk_2"), never)];
    await Promise.resolve();
    channel.closeWith();
    for (const r of await Promise.all(ps)) {
      expect(r).toEqual({
        ok: false,
        failure: { kind: "transient", reason: "channel closed before the broker confirmed" },
      });
    }
  });

  it("when the socket is full, the next publish waits for drain, and its signal bounds the wait", async () => {
    const { channel, pub } = setup();
    channel.full = true;
    const first = pub.publish(req("hk_1"), never);
    await Promise.resolve();
    const ac = new AbortController();
    const second = pub.publish(req("hk_2"), ac.signal);
    const third = pub.publish(req("hk_3"), never);
    await new Promise((r) => setTimeout(r, 5));
    expect(channel.sent).toHaveLength(1);
    ac.abort();
    expect(await second).toMatchObject({ ok: false, failure: { kind: "transient" } });
    channel.full = false;
    channel.emit("drain");
    await new Promise((r) => setTimeout(r, 0));
    expect(channel.sent.map((s) => s.options.messageId)).toEqual(["hk_1", "hk_3"]);
    for (const s of channel.sent) s.cb(null);
    expect(await first).toEqual({ ok: true });
    expect(await third).toEqual({ ok: true });
  });
});

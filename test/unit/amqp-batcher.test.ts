// Batch gathering with a fake connection and publisher: size and delay triggers, per-item answers, aborts.
import { describe, expect, it } from "vitest";
import { ok, transient } from "../../src/domain/error-class.ts";
import type { DeliveryResult } from "../../src/domain/error-class.ts";
import { silentLogger } from "../../src/observability/logger.ts";
import { PublishBatcher } from "../../src/sinks/amqp/batcher.ts";
import type { AmqpConnection } from "../../src/sinks/amqp/connection.ts";
import type { PublishRequest } from "../../src/sinks/amqp/publisher.ts";

function setup(max: number, maxDelayMs: number, answer: (req: PublishRequest) => DeliveryResult = () => ok) {
  const published: string[][] = [];
  let current: string[] | undefined;
  const publisher = {
    publishNow(req: PublishRequest): Promise<DeliveryResult> {
      if (!current) {
        current = [];
        published.push(current);
        queueMicrotask(() => (current = undefined));
      }
      current.push(req.messageId);
      return Promise.resolve(answer(req));
    },
  };
  const connection = { acquire: () => Promise.resolve(publisher) } as unknown as AmqpConnection;
  const batcher = new PublishBatcher({ max, maxDelayMs }, connection, silentLogger());
  return { batcher, published };
}

const req = (id: string): PublishRequest => ({
  routingKey: "k",
  content: Buffer.from("{}"),
  messageId: id,
  headers: {},
});
const never = new AbortController().signal;

describe("PublishBatcher", () => {
  it("a full batch goes out at once, back to back; the remainder after max_delay_ms", async () => {
    const { batcher, published } = setup(3, 20);
    const t0 = Date.now();
    const rs = await Promise.all(["a", "b", "c", "d"].map((id) => batcher.add(req(id), never)));
    expect(rs.every((r) => r.ok)).toBe(true);
    expect(published).toEqual([["a", "b", "c"], ["d"]]);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(15);
    expect(batcher.stats).toEqual({ batches: 2, largest: 3 });
  });

  it("each item gets its own answer", async () => {
    const { batcher } = setup(10, 1, (r) => (r.messageId === "b" ? transient("unroutable") : ok));
    const [a, b] = await Promise.all([batcher.add(req("a"), never), batcher.add(req("b"), never)]);
    expect(a).toEqual(ok);
    expect(b).toEqual(transient("unroutable"));
  });

  it("an item aborted before its batch goes out is dropped, transient, and never published", async () => {
    const { batcher, published } = setup(10, 20);
    const ac = new AbortController();
    const dropped = batcher.add(req("a"), ac.signal);
    const kept = batcher.add(req("b"), never);
    ac.abort();
    expect(await dropped).toMatchObject({ ok: false, failure: { kind: "transient" } });
    expect(await kept).toEqual(ok);
    expect(published).toEqual([["b"]]);
  });

  it("dropAll settles what is waiting as transient", async () => {
    const { batcher, published } = setup(10, 1000);
    const p = batcher.add(req("a"), never);
    batcher.dropAll("sink closed");
    expect(await p).toEqual(transient("sink closed"));
    expect(published).toEqual([]);
  });
});

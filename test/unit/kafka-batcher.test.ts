// The micro-batcher the kafka sink uses to fold concurrent deliveries into one Produce request.
import { describe, expect, it } from "vitest";
import { Batcher } from "../../src/sinks/kafka/batcher.ts";

const sentCount = async (items: number[]) => `sent ${items.length}`;

function recording(result: (items: number[]) => Promise<string> = sentCount, maxDelayMs = 20) {
  const batches: number[][] = [];
  const batcher = new Batcher<number, string>({
    max: 4,
    maxDelayMs,
    flush: (items) => {
      batches.push(items);
      return result(items);
    },
  });
  return { batcher, batches };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("Batcher", () => {
  it("sends items that arrive together as one batch and shares its result", async () => {
    const { batcher, batches } = recording();
    const results = await Promise.all([1, 2, 3].map((i) => batcher.add(i)));
    expect(batches).toEqual([[1, 2, 3]]);
    expect(results).toEqual(["sent 3", "sent 3", "sent 3"]);
  });

  it("flushes at `max` without waiting for the delay", async () => {
    const { batcher, batches } = recording(sentCount, 5000);
    const started = Date.now();
    const results = await Promise.all([1, 2, 3, 4].map((i) => batcher.add(i)));
    expect(Date.now() - started).toBeLessThan(1000);
    expect(batches).toEqual([[1, 2, 3, 4]]);
    expect(results).toEqual(Array(4).fill("sent 4"));
  });

  it("splits more than `max` queued items into several batches, in order", async () => {
    const { batcher, batches } = recording();
    await Promise.all([1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => batcher.add(i)));
    expect(batches).toEqual([[1, 2, 3, 4], [5, 6, 7, 8], [9]]);
  });

  it("waits up to maxDelayMs for company, measured from the first queued item", async () => {
    const { batcher, batches } = recording();
    const a = batcher.add(1);
    await sleep(5);
    const b = batcher.add(2);
    await Promise.all([a, b]);
    expect(batches).toEqual([[1, 2]]);
  });

  it("rejects every item of a batch whose flush rejected", async () => {
    const { batcher } = recording(async () => {
      throw new Error("broker gone");
    });
    const results = await Promise.allSettled([batcher.add(1), batcher.add(2)]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
  });

  it("takes an item aborted while queued out of its batch and rejects it with the reason", async () => {
    const { batcher, batches } = recording();
    const ac = new AbortController();
    const kept = batcher.add(1);
    const aborted = batcher.add(2, ac.signal);
    ac.abort(new Error("timeout"));
    await expect(aborted).rejects.toThrow("timeout");
    expect(await kept).toBe("sent 1");
    expect(batches).toEqual([[1]]);
  });

  it("sends nothing when the only queued item is aborted", async () => {
    const { batcher, batches } = recording();
    const ac = new AbortController();
    const p = batcher.add(1, ac.signal);
    ac.abort(new Error("gone"));
    await expect(p).rejects.toThrow("gone");
    await sleep(40);
    expect(batches).toEqual([]);
  });

  it("rejects at once for an already aborted signal", async () => {
    const { batcher, batches } = recording();
    await expect(batcher.add(1, AbortSignal.abort(new Error("late")))).rejects.toThrow("late");
    await sleep(30);
    expect(batches).toEqual([]);
  });

  it("an abort after the flush leaves the item's result to the batch", async () => {
    let release: (v: string) => void = () => undefined;
    const { batcher } = recording(() => new Promise((r) => (release = r)));
    const ac = new AbortController();
    const p = batcher.add(1, ac.signal);
    await sleep(30); // flushed, waiting on the broker
    ac.abort(new Error("too late"));
    release("delivered");
    expect(await p).toBe("delivered");
  });

  it("drain sends what is queued now and waits for batches in flight", async () => {
    let finished = false;
    const { batcher, batches } = recording(async (items) => {
      await sleep(10);
      finished = true;
      return `sent ${items.length}`;
    }, 5000);
    const p = batcher.add(1);
    const started = Date.now();
    await batcher.drain();
    expect(finished).toBe(true);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(batches).toEqual([[1]]);
    expect(await p).toBe("sent 1");
  });
});

describe("Batcher byte cap", () => {
  it("flushes before a batch would pass maxBytes; an item over it goes alone", async () => {
    const batches: number[][] = [];
    const batcher = new Batcher<number, string>({
      max: 100,
      maxDelayMs: 20,
      maxBytes: 10,
      sizeOf: (n) => n,
      flush: async (items) => {
        batches.push(items);
        return "ok";
      },
    });
    await Promise.all([4, 4, 4, 12, 1, 9, 1].map((n) => batcher.add(n)));
    expect(batches).toEqual([[4, 4], [4], [12], [1, 9], [1]]);
    for (const b of batches) expect(b.length === 1 || b.reduce((a, n) => a + n, 0) <= 10).toBe(true);
  });
});

import { describe, expect, it } from "vitest";
import { Slots } from "../../src/sinks/amqp/slots.ts";

const never = new AbortController().signal;

describe("Slots", () => {
  it("grants up to the limit at once, then queues FIFO", async () => {
    const slots = new Slots(2);
    expect(await slots.acquire(never)).toBe(true);
    expect(await slots.acquire(never)).toBe(true);
    const order: number[] = [];
    const third = slots.acquire(never).then((v) => order.push(3) && v);
    const fourth = slots.acquire(never).then((v) => order.push(4) && v);
    await Promise.resolve();
    expect(slots.waiting).toBe(2);
    expect(order).toEqual([]);

    slots.release();
    expect(await third).toBe(true);
    slots.release();
    expect(await fourth).toBe(true);
    expect(order).toEqual([3, 4]);
    expect(slots.inUse).toBe(2);
    expect(slots.peak).toBe(2);
  });

  it("an aborted wait resolves false, holds nothing, and leaves the queue", async () => {
    const slots = new Slots(1);
    await slots.acquire(never);
    const ac = new AbortController();
    const waiting = slots.acquire(ac.signal);
    const after = slots.acquire(never);
    ac.abort();
    expect(await waiting).toBe(false);
    expect(slots.waiting).toBe(1);
    slots.release();
    expect(await after).toBe(true);
    expect(slots.inUse).toBe(1);
  });

  it("an already-aborted signal gets nothing, even with free slots", async () => {
    const slots = new Slots(3);
    expect(await slots.acquire(AbortSignal.abort())).toBe(false);
    expect(slots.inUse).toBe(0);
  });

  it("refuses a release without an acquire and a limit below 1", () => {
    expect(() => new Slots(1).release()).toThrow();
    expect(() => new Slots(0)).toThrow(RangeError);
  });
});

import { describe, expect, it } from "vitest";
import { TickBatch } from "../../src/store/tick-batch.ts";

describe("TickBatch", () => {
  it("flushes what was added within one tick as one call, answering each caller", async () => {
    const calls: number[][] = [];
    const batch = new TickBatch<number, number>(async (items) => {
      calls.push([...items]);
      return items.map((n) => n * 10);
    });
    const results = await Promise.all([batch.add(1), batch.add(2), batch.add(3)]);
    expect(results).toEqual([10, 20, 30]);
    expect(calls).toEqual([[1, 2, 3]]);
    expect(await batch.add(4)).toBe(40);
    expect(calls).toEqual([[1, 2, 3], [4]]);
  });

  it("rejects every caller of a failed flush, and recovers for the next", async () => {
    let fail = true;
    const batch = new TickBatch<string, string>(async (items) => {
      if (fail) throw new Error("redis down");
      return items.map((s) => s.toUpperCase());
    });
    const settled = await Promise.allSettled([batch.add("a"), batch.add("b")]);
    expect(settled.map((s) => s.status)).toEqual(["rejected", "rejected"]);
    fail = false;
    expect(await batch.add("c")).toBe("C");
  });
});

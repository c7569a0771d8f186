import { describe, expect, it } from "vitest";
import {
  BreakerCache,
  type BreakerSnapshot,
  parkJitterMs,
  parseSnapshot,
  snapshotState,
  stateAt,
} from "../../src/delivery/breaker-cache.ts";

const closed: BreakerSnapshot = {
  ver: 1,
  open: false,
  openLeftMs: 0,
  probeLeftMs: 0,
  failing: false,
  periodMs: 0,
};
const open = (ver: number, openLeftMs: number, probeLeftMs = 0): BreakerSnapshot => ({
  ver,
  open: true,
  openLeftMs,
  probeLeftMs,
  failing: false,
  periodMs: 300,
});

describe("parseSnapshot", () => {
  it("reads a script reply tail or a message", () => {
    expect(parseSnapshot([4, "open", 250, 0, 0, 300])).toEqual(open(4, 250));
    expect(parseSnapshot([2, "closed", 0, 0, 1, 0])).toEqual({ ...closed, ver: 2, failing: true });
  });
  it("names the state at the moment it was taken", () => {
    expect(snapshotState(closed)).toBe("closed");
    expect(snapshotState(open(2, 1))).toBe("open");
    expect(snapshotState(open(2, 0, 300))).toBe("half_open");
  });
  it("rejects anything else", () => {
    expect(() => parseSnapshot([1, "half", 0, 0, 0, 0])).toThrow();
    expect(() => parseSnapshot([1, "open", "5", 0, 0, 0])).toThrow();
    expect(() => parseSnapshot([])).toThrow();
  });
});

describe("parkJitterMs", () => {
  it("stays within 0..min(1000, 10% of the period)", () => {
    expect(parkJitterMs(300, () => 0)).toBe(0);
    expect(parkJitterMs(300, () => 0.999999)).toBe(30);
    expect(parkJitterMs(30_000, () => 0.999999)).toBe(1000);
    expect(parkJitterMs(5, () => 0.999999)).toBe(0);
    for (let i = 0; i < 1000; i++) {
      const j = parkJitterMs(2000, Math.random);
      expect(Number.isInteger(j) && j >= 0 && j <= 200).toBe(true);
    }
  });
  it("spreads parked callers rather than waking them together", () => {
    const values = new Set(Array.from({ length: 200 }, () => parkJitterMs(2000, Math.random)));
    expect(values.size).toBeGreaterThan(50);
  });
});

describe("BreakerCache", () => {
  it("asks Redis for a target it has not heard of, or has not heard from for refreshMs", () => {
    const cache = new BreakerCache(1000);
    expect(cache.gate("s", 0)).toEqual({ kind: "ask" });
    cache.apply("s", closed, 100);
    expect(cache.gate("s", 1099)).toEqual({ kind: "pass" });
    expect(cache.gate("s", 1100)).toEqual({ kind: "ask" });
  });

  it("parks until the open period ends, then until the probe's deadline, then asks", () => {
    const cache = new BreakerCache(1000);
    cache.apply("s", open(2, 300), 1000);
    expect(cache.gate("s", 1299)).toEqual({ kind: "park", until: 1300, periodMs: 300 });
    expect(stateAt(cache.fresh("s", 1299)!, 1299)).toBe("open");
    expect(cache.gate("s", 1300)).toEqual({ kind: "ask" }); // half-open: only Redis hands out the probe
    expect(stateAt(cache.fresh("s", 1300)!, 1300)).toBe("half_open");
    cache.apply("s", open(3, 0, 400), 1310);
    expect(cache.gate("s", 1709)).toEqual({ kind: "park", until: 1710, periodMs: 300 });
    expect(cache.gate("s", 1710)).toEqual({ kind: "ask" });
  });

  it("drops an older snapshot that arrives after a newer one", () => {
    const cache = new BreakerCache(1000);
    cache.apply("s", closed, 0); // ver 1
    cache.apply("s", open(2, 300), 10);
    cache.apply("s", closed, 11); // a reply sent before the open, read after the message
    expect(cache.gate("s", 20)).toEqual({ kind: "park", until: 310, periodMs: 300 });
    // The same version again only refreshes.
    cache.apply("s", open(2, 200), 110);
    expect(cache.fresh("s", 1105)?.confirmedAt).toBe(110);
  });

  it("believes an older version once the newer one has gone unconfirmed for refreshMs", () => {
    const cache = new BreakerCache(1000);
    cache.apply("s", open(7, 300), 0);
    cache.apply("s", { ...closed, ver: 3 }, 1000); // e.g. the key was deleted and rebuilt
    expect(cache.gate("s", 1001)).toEqual({ kind: "pass" });
  });

  it("keeps targets apart and forgets everything on clear", () => {
    const cache = new BreakerCache(1000);
    cache.apply("a", open(1, 300), 0);
    cache.apply("b", closed, 0);
    expect(cache.gate("a", 1).kind).toBe("park");
    expect(cache.gate("b", 1).kind).toBe("pass");
    cache.clear();
    expect(cache.gate("b", 1).kind).toBe("ask");
  });
});

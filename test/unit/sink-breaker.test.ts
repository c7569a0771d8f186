import { afterEach, describe, expect, it } from "vitest";
import { SinkBreaker } from "../../src/delivery/sink-breaker.ts";
import { type DeliveryResult, ok, permanent, transient } from "../../src/domain/error-class.ts";

const config = { failures: 3, open_ms: 60, max_open_ms: 200 };
const breakers: SinkBreaker[] = [];
afterEach(() => breakers.splice(0).forEach((b) => b.shutdown()));

function make(): { b: SinkBreaker; states: string[] } {
  const states: string[] = [];
  const b = new SinkBreaker(config, (s) => states.push(s));
  breakers.push(b);
  return { b, states };
}

async function attempt(b: SinkBreaker, result: DeliveryResult): Promise<DeliveryResult | "parked"> {
  const gate = b.gate();
  if (!gate.pass) return "parked";
  return b.run(async () => result, gate.probe);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("SinkBreaker", () => {
  it("opens after `failures` consecutive countable failures, not before", async () => {
    const { b } = make();
    await attempt(b, transient("x"));
    await attempt(b, transient("x"));
    await attempt(b, ok); // resets the streak
    await attempt(b, transient("x"));
    await attempt(b, transient("x"));
    expect(b.state).toBe("closed");
    await attempt(b, transient("x"));
    expect(b.state).toBe("open");
    expect(await attempt(b, ok)).toBe("parked");
  });

  it("does not count permanent failures", async () => {
    const { b } = make();
    for (let i = 0; i < 10; i++) await attempt(b, permanent("gone"));
    expect(b.state).toBe("closed");
  });

  it("parks until the end of the open period", async () => {
    const { b } = make();
    const before = Date.now();
    for (let i = 0; i < 3; i++) await attempt(b, transient("x"));
    const gate = b.gate();
    expect(gate.pass).toBe(false);
    if (!gate.pass) {
      expect(gate.parkUntil).toBeGreaterThanOrEqual(before + 60);
      expect(gate.parkUntil).toBeLessThanOrEqual(Date.now() + 60);
    }
  });

  it("lets exactly one probe through when half-open; success closes", async () => {
    const { b, states } = make();
    for (let i = 0; i < 3; i++) await attempt(b, transient("x"));
    await sleep(80);
    expect(b.state).toBe("half_open");
    const probe = b.gate();
    expect(probe).toEqual({ pass: true, probe: true });
    expect(b.gate().pass).toBe(false); // a second caller waits for the probe
    await b.run(async () => ok, true);
    expect(b.state).toBe("closed");
    expect(states).toEqual(["open", "half_open", "closed"]);
  });

  it("doubles the open period after a failed probe, up to max_open_ms", async () => {
    const { b } = make();
    for (let i = 0; i < 3; i++) await attempt(b, transient("x"));
    const periods: number[] = [];
    for (let round = 0; round < 3; round++) {
      const waitStart = Date.now();
      while (b.state !== "half_open") await sleep(5);
      periods.push(Date.now() - waitStart);
      await attempt(b, transient("still down"));
      expect(b.state).toBe("open");
    }
    // 60 (first) → probe fails → 120 → fails → 200 (cap, not 240)
    expect(periods[0]).toBeLessThan(90);
    expect(periods[1]).toBeGreaterThanOrEqual(110);
    expect(periods[2]).toBeGreaterThanOrEqual(190);
    expect(periods[2]).toBeLessThan(235);
  });
});

describe("regression: breaker herd (half-open waiters parked for only 1 s each)", () => {
  it("parks jobs that arrive while the probe runs until the probe's deadline", async () => {
    let now = 0;
    const b = new SinkBreaker(
      { failures: 1, open_ms: 100, max_open_ms: 1000 },
      () => undefined,
      () => now,
      30_000,
    );
    await b.run(async () => transient("down"), false); // opens
    now = 150;
    await new Promise((r) => setTimeout(r, 130)); // opossum's reset timer: half-open
    const probe = b.gate();
    expect(probe).toEqual({ pass: true, probe: true });
    now = 200;
    // Every waiter wakes once, when the probe must have ended: not every second while it runs.
    expect(b.gate()).toEqual({ pass: false, parkUntil: 150 + 30_000 });
    now = 5_000;
    expect(b.gate()).toEqual({ pass: false, parkUntil: 150 + 30_000 });
    b.shutdown();
  });
});

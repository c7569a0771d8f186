// A repeated stop signal: an echo relayed by a wrapper never ends a drain; a second Ctrl-C after a
// pause does.
import { describe, expect, it } from "vitest";
import { ECHO_WINDOW_MS, StopSignals } from "../../src/runtime/stop-signals.ts";

function clock(): { now: () => number; advance: (ms: number) => void } {
  let t = 1_000_000;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

describe("StopSignals", () => {
  it("drains on the first signal, whichever it is", () => {
    expect(new StopSignals().receive("SIGTERM")).toBe("drain");
    expect(new StopSignals().receive("SIGINT")).toBe("drain");
  });

  it("tsx_resends_sigterm: a SIGTERM relayed moments after the first is ignored, not an exit 1", () => {
    const c = clock();
    const signals = new StopSignals(c.now);
    expect(signals.receive("SIGTERM")).toBe("drain");
    c.advance(30);
    expect(signals.receive("SIGTERM")).toBe("ignore");
  });

  it("never forces on SIGTERM, however late: the drain has its own deadline", () => {
    const c = clock();
    const signals = new StopSignals(c.now);
    signals.receive("SIGTERM");
    c.advance(20_000);
    expect(signals.receive("SIGTERM")).toBe("ignore");
  });

  it("ignores a SIGINT echo (npm relaying Ctrl-C the terminal already sent) inside the window", () => {
    const c = clock();
    const signals = new StopSignals(c.now);
    signals.receive("SIGINT");
    c.advance(ECHO_WINDOW_MS - 1);
    expect(signals.receive("SIGINT")).toBe("ignore");
  });

  it("forces on a SIGINT after the window, also when the first signal was SIGTERM", () => {
    for (const first of ["SIGINT", "SIGTERM"] as const) {
      const c = clock();
      const signals = new StopSignals(c.now);
      signals.receive(first);
      c.advance(ECHO_WINDOW_MS);
      expect(signals.receive("SIGINT")).toBe("force");
    }
  });
});

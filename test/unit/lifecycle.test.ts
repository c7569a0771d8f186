// Shutdown order and timing: every role stops at once under one deadline, and what the roles share
// (Redis connections, queue producers) closes only after all of them.
import { describe, expect, it } from "vitest";
import { silentLogger } from "../../src/observability/logger.ts";
import { Lifecycle } from "../../src/runtime/lifecycle.ts";

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe("Lifecycle.stop", () => {
  it("stops roles in parallel under one deadline, then the shared resources", async () => {
    const life = new Lifecycle(silentLogger(), { deadlineMs: 2000 });
    const events: string[] = [];
    life.onStop("redis", async () => void events.push("redis"));
    life.onStop("queues", async () => void events.push("queues"));
    for (const role of ["api", "dispatch", "recovery"]) {
      const steps = life.role(role);
      steps.onStop(`${role} first`, async () => void events.push(`${role} first`));
      steps.onStop(`${role} last`, async () => {
        await sleep(300);
        events.push(`${role} last`);
      });
    }
    const started = Date.now();
    await life.stop();
    const elapsed = Date.now() - started;
    // Three roles of 300 ms each: in parallel, not one after another.
    expect(elapsed).toBeLessThan(600);
    // Within a role, last registered first; shared resources last, last registered first.
    for (const role of ["api", "dispatch", "recovery"]) {
      expect(events.indexOf(`${role} last`)).toBeLessThan(events.indexOf(`${role} first`));
    }
    expect(events.slice(-2)).toEqual(["queues", "redis"]);
  });

  it("hands every step the deadline, and does not wait for a step that ignores it", async () => {
    const life = new Lifecycle(silentLogger(), { deadlineMs: 300, afterDeadlineMs: 200 });
    let abortedAt: number | undefined;
    const started = Date.now();
    life.role("api").onStop("honours the deadline", async (deadline) => {
      await new Promise<void>((resolve) =>
        deadline.addEventListener("abort", () => {
          abortedAt = Date.now() - started;
          resolve();
        }),
      );
    });
    life.role("dispatch").onStop("hangs", () => new Promise<void>(() => undefined));
    let sharedClosed = false;
    life.onStop("redis", async () => void (sharedClosed = true));
    await life.stop();
    const elapsed = Date.now() - started;
    expect(abortedAt).toBeGreaterThanOrEqual(290);
    expect(abortedAt).toBeLessThan(450);
    expect(elapsed).toBeGreaterThanOrEqual(490);
    expect(elapsed).toBeLessThan(900);
    expect(sharedClosed).toBe(true);
  });

  it("is idempotent and keeps going past a failing step", async () => {
    const life = new Lifecycle(silentLogger(), { deadlineMs: 1000 });
    let closed = 0;
    life.onStop("redis", async () => void closed++);
    life.role("api").onStop("throws", async () => {
      throw new Error("boom");
    });
    await Promise.all([life.stop(), life.stop()]);
    expect(closed).toBe(1);
  });
});

import { describe, expect, it } from "vitest";
import { InFlightAttempts, safeDeliver } from "../../src/delivery/safe-deliver.ts";
import { ok, permanent } from "../../src/domain/error-class.ts";
import type { Delivery } from "../../src/domain/hook.ts";
import type { Sink } from "../../src/sinks/sink.ts";

const delivery = { attempt: 1 } as unknown as Delivery;

function sink(deliver: Sink["deliver"]): Sink {
  return {
    name: "s",
    type: "test",
    inlineMaxBytes: undefined,
    deliver,
    describe: () => undefined,
    close: async () => {},
  };
}

describe("safeDeliver", () => {
  it("passes a sink's own result through", async () => {
    expect(
      await safeDeliver(
        sink(async () => ok),
        delivery,
        1000,
      ),
    ).toEqual(ok);
    expect(
      await safeDeliver(
        sink(async () => permanent("gone")),
        delivery,
        1000,
      ),
    ).toEqual(permanent("gone"));
  });

  it("turns a synchronous throw into a transient failure", async () => {
    const r = await safeDeliver(
      sink(() => {
        throw new Error("kaboom");
      }),
      delivery,
      1000,
    );
    expect(r).toEqual({ ok: false, failure: { kind: "transient", reason: "sink threw: kaboom" } });
  });

  it("turns a rejection with a non-Error into a transient failure", async () => {
    const r = await safeDeliver(
      sink(() => Promise.reject("just a string")),
      delivery,
      1000,
    );
    expect(r.ok).toBe(false);
    expect(!r.ok && r.failure.kind).toBe("transient");
  });

  it("turns an unexpected return value into a transient failure", async () => {
    for (const weird of [undefined, 42, { ok: "yes" }, { ok: false, failure: { kind: "maybe" } }]) {
      const r = await safeDeliver(
        sink(async () => weird as never),
        delivery,
        1000,
      );
      expect(!r.ok && r.failure.kind, JSON.stringify(weird)).toBe("transient");
    }
  });

  it("times out a sink that hangs and aborts its signal", async () => {
    let signal: AbortSignal | undefined;
    const started = Date.now();
    const r = await safeDeliver(
      sink((_d, s) => {
        signal = s;
        return new Promise(() => undefined);
      }),
      delivery,
      100,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(95);
    expect(!r.ok && r.failure.reason).toContain("timed out after 100 ms");
    expect(signal?.aborted).toBe(true);
  });

  it("cancels an attempt when the worker shuts down", async () => {
    const inFlight = new InFlightAttempts();
    let signal: AbortSignal | undefined;
    setTimeout(() => inFlight.cancelAll(), 20);
    const r = await safeDeliver(
      sink((_d, s) => {
        signal = s;
        return new Promise(() => undefined);
      }),
      delivery,
      10_000,
      inFlight,
    );
    expect(!r.ok && r.failure.reason).toContain("shutting down");
    expect(signal?.aborted).toBe(true);
    // An attempt that starts after the cancel is cancelled at once.
    const late = await safeDeliver(
      sink(() => new Promise(() => undefined)),
      delivery,
      10_000,
      inFlight,
    );
    expect(!late.ok && late.failure.reason).toContain("shutting down");
  });
});

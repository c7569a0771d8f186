// Dispatch on real Redis with a local receiver: each error class ends where the README says.
import { afterEach, describe, expect, it } from "vitest";
import type { Reply } from "../support/receiver.ts";
import {
  type ReceiverGateway,
  type ReceiverGatewayOptions,
  startReceiverGateway,
} from "../support/receiver-gateway.ts";
import { sinkDeliveryId } from "../../src/domain/hook.ts";
import type { HookId } from "../../src/domain/ids.ts";
import { deliveryJob, dlqEntryOf, metricValue, sendHook, sinkState, waitForState } from "../support/hooks.ts";
import { isQueued, onLedgerEngine } from "../support/queued.ts";

let env: ReceiverGateway | undefined;
afterEach(async () => {
  await env?.stop();
  env = undefined;
});

async function setup(script: Reply[], opts: Omit<ReceiverGatewayOptions, "script"> = {}) {
  env = await startReceiverGateway({
    script,
    ...opts,
    sink: { secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", ...opts.sink },
  });
  return env;
}

const BINARY = Buffer.from([0x00, 0xff, 0x10, 0x7b, 0x7d, 0xc3, 0x28]);

describe("dispatch outcomes", () => {
  it("2xx: delivered once, body bytes identical, headers present", async () => {
    const { gw, rx } = await setup([200]);
    const id = await sendHook(gw, "src", BINARY, { "content-type": "application/octet-stream" });
    const state = await waitForState(gw, id, "out", "delivered");
    expect(state.attempts).toBe(1);
    await new Promise((r) => setTimeout(r, 200));
    expect(rx.requests).toHaveLength(1);
    const req = rx.requests[0]!;
    expect(req.body.equals(BINARY)).toBe(true);
    expect(req.headers["x-switchyard-id"]).toBe(id);
    expect(req.headers["x-switchyard-source"]).toBe("src");
    expect(req.headers["x-switchyard-attempt"]).toBe("1");
    expect(req.headers["x-switchyard-idempotency-key"]).toMatch(/^-:src:sha256:/);
    expect(req.headers["content-type"]).toBe("application/octet-stream");
    expect(req.headers["webhook-id"]).toBe(id);
    expect(req.headers["webhook-signature"]).toMatch(/^v1,/);
    expect(await metricValue(gw, "switchyard_dispatch_attempts_total", { sink: "out", result: "ok" })).toBe(
      1,
    );
  });

  it("410: dead after exactly one attempt with error_class permanent", async () => {
    const { gw, rx } = await setup([410]);
    const id = await sendHook(gw, "src", "{}");
    const state = await waitForState(gw, id, "out", "dead");
    expect(state).toMatchObject({ attempts: 1, error_class: "permanent" });
    expect(state.last_error).toContain("410");
    const entry = await dlqEntryOf(gw, id, "out");
    expect(entry).toMatchObject({
      error_class: "permanent",
      attempts: 1,
      hook_id: id,
      sink: "out",
      source: "src",
      status_code: 410,
    });
    expect(entry?.first_attempt_at).toBeGreaterThan(0);
    // Nothing will run it again: BullMQ keeps its job as failed; a ledger queue keeps no entry of it
    // (the DLQ indexes are its record).
    if (onLedgerEngine(gw))
      expect(await isQueued(gw, { kind: "sink", name: "out" }, sinkDeliveryId(id as HookId, "out"))).toBe(
        false,
      );
    else expect(await (await deliveryJob(gw, id, "out"))?.getState()).toBe("failed");
    expect(rx.requests).toHaveLength(1);
    expect(
      await metricValue(gw, "switchyard_dispatch_dead_lettered_total", {
        sink: "out",
        error_class: "permanent",
      }),
    ).toBe(1);
  });

  it("401: permanent and counted as a config error", async () => {
    const { gw } = await setup([401]);
    const id = await sendHook(gw, "src", "{}");
    await waitForState(gw, id, "out", "dead");
    expect(await metricValue(gw, "switchyard_dispatch_config_errors_total", { sink: "out" })).toBe(1);
  });

  it("429 with Retry-After: 2 → the next attempt is at least 2 s later", async () => {
    const { gw, rx } = await setup([{ status: 429, headers: { "retry-after": "2" } }, 200]);
    const id = await sendHook(gw, "src", "{}");
    const state = await waitForState(gw, id, "out", "delivered", 8000);
    expect(state.attempts).toBe(2);
    const [first, second] = rx.requests;
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(2000);
  });

  it("500, 500, 200 → delivered on attempt 3", async () => {
    const { gw, rx } = await setup([500, 500, 200]);
    const id = await sendHook(gw, "src", "{}");
    const state = await waitForState(gw, id, "out", "delivered");
    expect(state.attempts).toBe(3);
    expect(rx.requests.map((r) => r.headers["x-switchyard-attempt"])).toEqual(["1", "2", "3"]);
    expect(new Set(rx.requests.map((r) => r.headers["webhook-id"])).size).toBe(1);
  });

  it("a receiver that hangs: the attempt times out, is retried, then delivered", async () => {
    const { gw, rx } = await setup(["hang", 200], { dispatch: { attempt_timeout_ms: 300 } });
    const id = await sendHook(gw, "src", "{}");
    const state = await waitForState(gw, id, "out", "delivered");
    expect(state.attempts).toBe(2);
    expect(rx.requests).toHaveLength(2);
    expect(rx.requests[1]!.receivedAt - rx.requests[0]!.receivedAt).toBeGreaterThanOrEqual(300);
  });

  it("a sink failing past max_elapsed_ms is dead with error_class transient", async () => {
    const { gw, rx } = await setup([], {
      fallback: 503,
      dispatch: {
        retry: { base_ms: 20, max_ms: 50, max_attempts: 1000, max_elapsed_ms: 400 },
        breaker: { failures: 1000 },
      },
    });
    const id = await sendHook(gw, "src", "{}");
    const state = await waitForState(gw, id, "out", "dead");
    expect(state.error_class).toBe("transient");
    expect(state.attempts).toBeGreaterThan(2);
    expect(state.last_attempt_at! - state.first_attempt_at!).toBeGreaterThanOrEqual(400);
    expect(rx.requests.length).toBe(state.attempts);
    expect((await sinkState(gw, id, "out"))?.state).toBe("dead");
  });

  it("out of attempts: dead with the class of the last failure", async () => {
    const { gw } = await setup([], {
      fallback: 429,
      dispatch: { retry: { base_ms: 5, max_ms: 10, max_attempts: 3 }, breaker: { failures: 1000 } },
    });
    const id = await sendHook(gw, "src", "{}");
    const state = await waitForState(gw, id, "out", "dead", 15_000);
    expect(state).toMatchObject({ attempts: 3, error_class: "throttled" });
  });
});

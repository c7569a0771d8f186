import { describe, expect, it } from "vitest";
import { transient } from "../../src/domain/error-class.ts";
import { classifyAmqpError, isFailure, unroutable } from "../../src/sinks/amqp/errors.ts";

function amqpError(message: string, code?: number): Error {
  return Object.assign(new Error(message), code === undefined ? {} : { code });
}

describe("classifyAmqpError", () => {
  it("a missing exchange (404) is a permanent config error", () => {
    const r = classifyAmqpError(
      amqpError(
        `Channel closed by server: 404 (NOT-FOUND) with message "NOT_FOUND - no exchange 'x' in vhost '/'"`,
        404,
      ),
      "publish",
    );
    expect(r).toEqual({
      ok: false,
      failure: {
        kind: "permanent",
        config: true,
        reason: `publish: Channel closed by server: 404 (NOT-FOUND) with message "NOT_FOUND - no exchange 'x' in vhost '/'"`,
      },
    });
  });

  it("ACCESS_REFUSED is a permanent config error, by code or, for a refused login, by message", () => {
    expect(classifyAmqpError(amqpError("403 (ACCESS-REFUSED)", 403), "publish").failure).toMatchObject({
      kind: "permanent",
      config: true,
    });
    const login = amqpError(
      'Handshake terminated by server: 403 (ACCESS-REFUSED) with message "ACCESS_REFUSED - Login was refused"',
    );
    expect(classifyAmqpError(login, "connect").failure).toMatchObject({ kind: "permanent", config: true });
  });

  it("NOT_ALLOWED (a vhost the user may not open) is a permanent config error", () => {
    const vhost = amqpError(
      'Handshake terminated by server: 530 (NOT-ALLOWED) with message "NOT_ALLOWED - vhost orders not found"',
    );
    expect(classifyAmqpError(vhost, "connect").failure).toMatchObject({ kind: "permanent", config: true });
    expect(classifyAmqpError(amqpError("x", 530), "connect").failure).toMatchObject({ config: true });
    // What amqplib 2 actually throws for a missing vhost (the 530 is not passed on).
    const real = amqpError("Expected ConnectionOpenOk; got <ConnectionClose channel:0>");
    expect(classifyAmqpError(real, "connect").failure).toMatchObject({ kind: "permanent", config: true });
  });

  it("connection loss, socket errors, other channel errors and non-errors are transient", () => {
    for (const err of [
      amqpError("connect ECONNREFUSED 127.0.0.1:5672"),
      amqpError('Connection closed: 320 (CONNECTION-FORCED) with message "CONNECTION_FORCED - test"', 320),
      amqpError("Channel closed by server: 406 (PRECONDITION-FAILED)", 406),
      amqpError("Channel closed"),
      "string thrown",
      undefined,
    ]) {
      expect(classifyAmqpError(err, "publish").failure.kind).toBe("transient");
    }
  });

  it("a 404 code wins over the message, and a 320 mentioning NOT_FOUND in its text stays transient", () => {
    expect(classifyAmqpError(amqpError("CONNECTION_FORCED - queue NOT_FOUND", 320), "x").failure.kind).toBe(
      "transient",
    );
  });

  it("reasons are one bounded line", () => {
    const r = classifyAmqpError(amqpError(`a\nb${"x".repeat(5000)}`), "publish");
    expect(r.failure.reason).not.toContain("\n");
    expect(r.failure.reason.length).toBeLessThanOrEqual(1024);
  });
});

describe("unroutable and isFailure", () => {
  it("an unroutable publish is transient and names the routing key", () => {
    expect(unroutable("stripe.acme", 312, "NO_ROUTE")).toEqual(
      transient('unroutable: no queue bound for routing key "stripe.acme" (312 NO_ROUTE)'),
    );
  });

  it("tells failures from other values", () => {
    expect(isFailure(unroutable("k", 312, "NO_ROUTE"))).toBe(true);
    expect(isFailure({ ok: true })).toBe(false);
    expect(isFailure(null)).toBe(false);
    expect(isFailure({ on: () => undefined })).toBe(false);
  });
});

// The kafka error classifier over the error objects kafkajs 2.2.4 really throws, wrapped the way its
// retriers wrap them.
import kafkajs from "kafkajs";
import { describe, expect, it } from "vitest";
import {
  brokerError,
  classifyKafkaError,
  shouldReplaceProducer,
} from "../../src/sinks/kafka/classify-kafka-error.ts";

const {
  KafkaJSProtocolError,
  KafkaJSNonRetriableError,
  KafkaJSNumberOfRetriesExceeded,
  KafkaJSConnectionError,
  KafkaJSConnectionClosedError,
  KafkaJSRequestTimeoutError,
  KafkaJSSASLAuthenticationError,
  KafkaJSAggregateError,
} = kafkajs as any;

/** What kafkajs's `createErrorFromCode` builds for a code (unknown codes become -99). */
function protocolError(code: number, type: string, retriable = false): Error {
  return new KafkaJSProtocolError({ code, type, retriable, message: `${type} message` });
}

function unknownCode(code: number): Error {
  return new KafkaJSProtocolError({
    code: -99,
    type: "KAFKAJS_UNKNOWN_ERROR_CODE",
    retriable: false,
    message: `Unknown error code ${code}`,
  });
}

/** How the kafkajs retrier reports a retriable error it gave up on. */
function retriesExceeded(e: Error): Error {
  return new KafkaJSNumberOfRetriesExceeded(e, { retryCount: 1, retryTime: 100 });
}

/** How the kafkajs retrier reports a non-retriable error it bailed on. */
function nonRetriable(e: Error): Error {
  return new KafkaJSNonRetriableError(e, { cause: e });
}

describe("classifyKafkaError", () => {
  it.each([
    [3, "UNKNOWN_TOPIC_OR_PARTITION"],
    [17, "INVALID_TOPIC_EXCEPTION"],
    [29, "TOPIC_AUTHORIZATION_FAILED"],
    [31, "CLUSTER_AUTHORIZATION_FAILED"],
    [58, "SASL_AUTHENTICATION_FAILED"],
  ])("code %i (%s) is a permanent config error, bare or wrapped", (code, type) => {
    const e = protocolError(code, type);
    for (const err of [e, retriesExceeded(e), nonRetriable(retriesExceeded(e))]) {
      const r = classifyKafkaError(err);
      expect(r).toEqual({
        ok: false,
        failure: { kind: "permanent", config: true, reason: expect.stringContaining(type) },
      });
    }
  });

  it.each([
    [2, "CORRUPT_MESSAGE"],
    [10, "MESSAGE_TOO_LARGE"],
    [18, "RECORD_LIST_TOO_LARGE"],
    [87, "INVALID_RECORD"],
  ])("code %i (%s) is permanent, not config", (code, type) => {
    const r = classifyKafkaError(nonRetriable(protocolError(code, type)));
    expect(r).toEqual({
      ok: false,
      failure: { kind: "permanent", config: false, reason: expect.any(String) },
    });
  });

  it("a SASL authentication failure is a config error", () => {
    const r = classifyKafkaError(new KafkaJSSASLAuthenticationError("SASL PLAIN authentication failed"));
    expect(r).toMatchObject({ ok: false, failure: { kind: "permanent", config: true } });
  });

  it("THROTTLING_QUOTA_EXCEEDED, which kafkajs only knows as 'Unknown error code 89', is retry_after", () => {
    const r = classifyKafkaError(nonRetriable(unknownCode(89)));
    expect(r).toEqual({
      ok: false,
      failure: {
        kind: "retry_after",
        ms: undefined,
        reason: expect.stringContaining("THROTTLING_QUOTA_EXCEEDED (89)"),
      },
    });
    expect(brokerError(unknownCode(89))?.code).toBe(89);
  });

  it("another code kafkajs does not know is transient, with the real code in the reason", () => {
    const r = classifyKafkaError(unknownCode(120));
    expect(r).toMatchObject({
      ok: false,
      failure: { kind: "transient", reason: expect.stringContaining("(120)") },
    });
  });

  it.each([
    ["NOT_LEADER_FOR_PARTITION", retriesExceeded(protocolError(6, "NOT_LEADER_FOR_PARTITION", true))],
    ["REQUEST_TIMED_OUT", retriesExceeded(protocolError(7, "REQUEST_TIMED_OUT", true))],
    [
      "connection refused",
      nonRetriable(
        new KafkaJSConnectionError("Connection error: connect ECONNREFUSED", { code: "ECONNREFUSED" }),
      ),
    ],
    [
      "connection closed",
      retriesExceeded(new KafkaJSConnectionClosedError("Closed connection", { host: "h", port: 1 })),
    ],
    ["request timeout", new KafkaJSRequestTimeoutError("Request Produce(key: 0, version: 7) timed out")],
    ["a plain Error", new Error("boom")],
    ["a string", "boom"],
    ["undefined", undefined],
  ])("%s is transient", (_name, err) => {
    expect(classifyKafkaError(err)).toMatchObject({ ok: false, failure: { kind: "transient" } });
  });

  it("reads a connection error's string `code` as no broker code", () => {
    const e = new KafkaJSConnectionError("Connection error", { code: "ECONNREFUSED" });
    expect(brokerError(e)).toBeUndefined();
  });

  it("finds a broker code inside an aggregate error", () => {
    const agg = new KafkaJSAggregateError("several", [
      new Error("x"),
      protocolError(29, "TOPIC_AUTHORIZATION_FAILED"),
    ]);
    expect(classifyKafkaError(agg)).toMatchObject({
      ok: false,
      failure: { kind: "permanent", config: true },
    });
  });

  it("survives a cause cycle", () => {
    const a: any = new Error("a");
    const b: any = new Error("b");
    a.cause = b;
    b.cause = a;
    expect(classifyKafkaError(a)).toMatchObject({ ok: false, failure: { kind: "transient" } });
  });

  it("keeps the reason on one bounded line", () => {
    const r = classifyKafkaError(new Error(`line1\nline2 ${"x".repeat(5000)}`));
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.failure.reason).not.toContain("\n");
      expect(r.failure.reason.length).toBeLessThanOrEqual(1024);
    }
  });
});

describe("shouldReplaceProducer", () => {
  it("is true for lost or refused connections, wrapped or not", () => {
    expect(shouldReplaceProducer(nonRetriable(new KafkaJSConnectionError("refused")))).toBe(true);
    expect(shouldReplaceProducer(new KafkaJSConnectionClosedError("closed", { host: "h", port: 1 }))).toBe(
      true,
    );
    expect(shouldReplaceProducer(new KafkaJSRequestTimeoutError("timed out"))).toBe(true);
  });

  it.each([
    [45, "OUT_OF_ORDER_SEQUENCE_NUMBER"],
    [47, "INVALID_PRODUCER_EPOCH"],
    [59, "UNKNOWN_PRODUCER_ID"],
  ])(
    "is true when the broker rejects the producer's state (%i %s), which is still transient",
    (code, type) => {
      const e = nonRetriable(protocolError(code, type));
      expect(shouldReplaceProducer(e)).toBe(true);
      expect(classifyKafkaError(e)).toMatchObject({ ok: false, failure: { kind: "transient" } });
    },
  );

  it("is false for broker answers and other errors", () => {
    expect(shouldReplaceProducer(retriesExceeded(protocolError(6, "NOT_LEADER_FOR_PARTITION", true)))).toBe(
      false,
    );
    expect(shouldReplaceProducer(new Error("boom"))).toBe(false);
  });
});

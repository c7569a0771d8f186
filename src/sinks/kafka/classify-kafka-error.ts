// Turns whatever kafkajs throws into Switchyard's three failure classes. kafkajs wraps broker error codes
// (KafkaJSProtocolError: `type`, `code`) in KafkaJSNonRetriableError / KafkaJSNumberOfRetriesExceeded
// through `.cause`, so the chain is unwrapped and judged by the innermost broker code it carries.
// Errors are recognised by shape and name, not `instanceof`, so a second copy of kafkajs still matches.
import {
  boundReason,
  permanent,
  retryAfter,
  transient,
  type DeliveryResult,
} from "../../domain/error-class.ts";

/** Broker codes that mean the sink's config is wrong (topic, credentials, ACLs): dead-letter and count. */
const CONFIG_CODES: ReadonlySet<number> = new Set([
  3, // UNKNOWN_TOPIC_OR_PARTITION
  17, // INVALID_TOPIC_EXCEPTION
  29, // TOPIC_AUTHORIZATION_FAILED
  31, // CLUSTER_AUTHORIZATION_FAILED (an idempotent producer needs IdempotentWrite on the cluster)
  33, // UNSUPPORTED_SASL_MECHANISM
  58, // SASL_AUTHENTICATION_FAILED
]);

/** Broker codes that mean this message will never be accepted as it is: dead-letter. */
const RECORD_CODES: ReadonlySet<number> = new Set([
  2, // CORRUPT_MESSAGE: the same bytes fail the same way on every attempt
  10, // MESSAGE_TOO_LARGE
  18, // RECORD_LIST_TOO_LARGE
  87, // INVALID_RECORD
]);

/** Broker codes that refuse a request for its size: a smaller request may go through. */
const TOO_LARGE_CODES: ReadonlySet<number> = new Set([
  10, // MESSAGE_TOO_LARGE
  18, // RECORD_LIST_TOO_LARGE
]);

/** Did the broker refuse the request for its size? (A batch of several is then worth splitting.) */
export function isTooLarge(err: unknown): boolean {
  const code = brokerError(err)?.code;
  return code !== undefined && TOO_LARGE_CODES.has(code);
}

/** Kafka's quota code; kafkajs 2.2.4 does not know it and reports "Unknown error code 89". */
const THROTTLING_QUOTA_EXCEEDED = 89;

/** kafkajs gives a code it does not know `code: -99` and keeps the real one only in the message. */
const UNKNOWN_CODE = /^Unknown error code (-?\d+)$/;

/**
 * Broker codes that mean the broker no longer knows this producer's id, epoch or sequence (producer ids
 * expire; a broker can lose state). kafkajs keeps its sequence numbers and fails every later send, so the
 * producer must be replaced to get a fresh id.
 */
const PRODUCER_STATE_CODES: ReadonlySet<number> = new Set([
  45, // OUT_OF_ORDER_SEQUENCE_NUMBER
  47, // INVALID_PRODUCER_EPOCH
  59, // UNKNOWN_PRODUCER_ID
]);

const CONNECTION_ERRORS = new Set([
  "KafkaJSConnectionError",
  "KafkaJSConnectionClosedError",
  "KafkaJSRequestTimeoutError",
  "KafkaJSBrokerNotFound",
  "KafkaJSNoBrokerAvailableError",
]);

interface ErrorLike {
  readonly name?: unknown;
  readonly message?: unknown;
  readonly type?: unknown;
  readonly code?: unknown;
  readonly cause?: unknown;
  readonly errors?: unknown;
}

/** The error and everything it wraps (`cause`, and `errors` of an aggregate), outermost first. */
export function errorChain(err: unknown): ErrorLike[] {
  const out: ErrorLike[] = [];
  const queue: unknown[] = [err];
  while (queue.length > 0 && out.length < 16) {
    const e = queue.shift();
    if (typeof e !== "object" || e === null || out.includes(e as ErrorLike)) continue;
    const like = e as ErrorLike;
    out.push(like);
    queue.push(like.cause);
    if (Array.isArray(like.errors)) queue.push(...(like.errors as unknown[]));
  }
  return out;
}

interface BrokerError {
  readonly code: number;
  readonly type: string;
  readonly message: string;
}

/** The innermost broker error in the chain, with the real code of one kafkajs did not know. */
export function brokerError(err: unknown): BrokerError | undefined {
  for (const e of errorChain(err).reverse()) {
    if (typeof e.type !== "string" || typeof e.code !== "number") continue;
    const message = typeof e.message === "string" ? e.message : "";
    const unknown = e.code === -99 ? UNKNOWN_CODE.exec(message) : null;
    if (!unknown?.[1]) return { code: e.code, type: e.type, message };
    const code = Number(unknown[1]);
    const type = code === THROTTLING_QUOTA_EXCEEDED ? "THROTTLING_QUOTA_EXCEEDED" : e.type;
    return { code, type, message };
  }
  return undefined;
}

/**
 * Should the producer be replaced before the next send? Yes when it lost its connection, or when the
 * broker no longer accepts its producer id or sequence. Both are still transient for the delivery.
 */
export function shouldReplaceProducer(err: unknown): boolean {
  const code = brokerError(err)?.code;
  if (code !== undefined && PRODUCER_STATE_CODES.has(code)) return true;
  return errorChain(err).some((e) => typeof e.name === "string" && CONNECTION_ERRORS.has(e.name));
}

/** Classify one failed `producer.connect()` or `producer.send()`. */
export function classifyKafkaError(err: unknown): DeliveryResult {
  const broker = brokerError(err);
  const reason = boundReason(
    broker ? `kafka ${broker.type} (${broker.code}): ${broker.message}` : describe(err),
  );
  if (errorChain(err).some((e) => e.name === "KafkaJSSASLAuthenticationError")) {
    return permanent(reason, { config: true });
  }
  if (!broker) return transient(reason);
  if (CONFIG_CODES.has(broker.code)) return permanent(reason, { config: true });
  if (RECORD_CODES.has(broker.code)) return permanent(reason);
  // kafkajs drops the response's throttle_time_ms when it raises the error, so there is no hint to pass on.
  if (broker.code === THROTTLING_QUOTA_EXCEEDED) return retryAfter(undefined, reason);
  return transient(reason);
}

/** `kafka <name>: <message>` of the innermost error. */
function describe(err: unknown): string {
  const inner = errorChain(err).at(-1);
  if (!inner) return `kafka: ${String(err)}`;
  const name = typeof inner.name === "string" ? inner.name : "Error";
  return `kafka ${name}: ${typeof inner.message === "string" ? inner.message : ""}`;
}

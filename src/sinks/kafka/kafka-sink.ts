// The `kafka` sink: publishes the queue message v1 of each delivery to one topic through an idempotent
// kafkajs producer (acks all), optionally micro-batching concurrent deliveries into one Produce request
// capped by count and by bytes; a batch the broker still refuses as too large is resent message by
// message, so one oversized message never takes its batch-mates down with it.
// kafkajs retries once at most: Switchyard's dispatch owns retries, backoff and the breaker, and needs
// a prompt, classified answer (an unknown topic must come back as a config error, not after a minute).
import { Kafka, Partitioners, type Message, type Producer, type SASLOptions } from "kafkajs";
import type { KafkaSinkConfig } from "./config.ts";
import { ok, transient, type DeliveryResult } from "../../domain/error-class.ts";
import type { Delivery } from "../../domain/hook.ts";
import { type AttemptAbort, onAbort } from "../attempt-abort.ts";
import { encodeQueueMessage, queueMessageHeaders } from "../queue-message.ts";
import { type Sink, type SinkDescription, type SinkFactory, effectiveBatchMax } from "../sink.ts";
import { renderTemplate } from "../template.ts";
import { Batcher } from "./batcher.ts";
import { classifyKafkaError, isTooLarge, shouldReplaceProducer } from "./classify-kafka-error.ts";
import { KAFKA_LOG_LEVEL, kafkaLogCreator } from "./kafka-log.ts";
import { ProducerHandle } from "./producer-handle.ts";

/** One quick retry inside kafkajs (an idempotent producer must allow at least one), then report. */
const KAFKAJS_RETRY = { retries: 1, initialRetryTime: 100, maxRetryTime: 1000 };

/** Build the `kafka` sink `name`. Nothing connects until the first delivery. */
export const createKafkaSink: SinkFactory<KafkaSinkConfig> = (name, config, deps) => {
  const brokers = config.brokers.map(stripUserinfo);
  const inlineMaxBytes = config.claim_check_bytes ?? deps.defaultClaimCheckBytes;
  const kafka = new Kafka({
    clientId: config.client_id,
    brokers,
    ssl: config.ssl,
    sasl: saslOptions(config.sasl),
    retry: KAFKAJS_RETRY,
    logLevel: KAFKA_LOG_LEVEL,
    logCreator: kafkaLogCreator(deps.logger, name),
  });
  const producers = new ProducerHandle(() =>
    kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      retry: KAFKAJS_RETRY,
      createPartitioner: Partitioners.DefaultPartitioner,
    }),
  );

  /** One Produce of `messages`; never rejects. `tooLarge`: the broker refused it for its size. */
  const produce = async (messages: Message[]): Promise<{ result: DeliveryResult; tooLarge: boolean }> => {
    let producer: Producer | undefined;
    try {
      producer = await producers.acquire();
      await producer.send({ topic: config.topic, acks: -1, messages });
      return { result: ok, tooLarge: false };
    } catch (err) {
      if (producer && shouldReplaceProducer(err)) producers.drop(producer);
      return { result: classifyKafkaError(err), tooLarge: isTooLarge(err) };
    }
  };

  const send = async (messages: Message[]): Promise<DeliveryResult> => (await produce(messages)).result;

  /** The result of each message of a batch: a batch too large as a whole is resent one by one. */
  const sendBatch = async (messages: Message[]): Promise<ReadonlyMap<Message, DeliveryResult>> => {
    const first = await produce(messages);
    if (!first.tooLarge || messages.length === 1) return new Map(messages.map((m) => [m, first.result]));
    const results = new Map<Message, DeliveryResult>();
    for (const m of messages) results.set(m, await send([m]));
    return results;
  };

  const batcher =
    config.batch &&
    new Batcher({
      max: effectiveBatchMax(config.batch.max, deps),
      maxDelayMs: config.batch.max_delay_ms,
      maxBytes: config.batch.max_bytes,
      sizeOf: messageBytes,
      flush: sendBatch,
    });
  let closed = false;

  const toMessage = (delivery: Delivery): Message => ({
    key: renderTemplate(config.key, delivery.hook),
    value: encodeQueueMessage(delivery, inlineMaxBytes),
    headers: queueMessageHeaders(delivery),
  });

  const description: SinkDescription = {
    payload: "message",
    protocol: "kafka",
    host: brokers.join(","),
    address: config.topic,
  };

  const sink: Sink = {
    name,
    type: "kafka",
    inlineMaxBytes,
    deliver(delivery, signal, abort) {
      if (closed) return Promise.resolve(transient("kafka sink is closed"));
      if (signal.aborted) return Promise.resolve(transient(abortReason(signal)));
      const message = toMessage(delivery);
      const result = batcher
        ? batcher
            .add(message, signal, abort)
            .then((results) => results.get(message) ?? transient("kafka batch gave no result"))
        : send([message]);
      return untilAborted(result, signal, abort);
    },
    describe: () => description,
    async close() {
      closed = true;
      await batcher?.drain();
      await producers.close();
    },
  };
  return sink;
};

/** Per-record overhead in a v2 record batch (length, attributes, deltas, varints), rounded up. */
const RECORD_OVERHEAD_BYTES = 32;

/** What `message` adds to a Produce request, estimated from its serialized parts. */
export function messageBytes(message: Message): number {
  let bytes = RECORD_OVERHEAD_BYTES + byteLength(message.key) + byteLength(message.value);
  for (const [name, value] of Object.entries(message.headers ?? {})) {
    bytes += Buffer.byteLength(name) + 8;
    for (const v of Array.isArray(value) ? value : [value]) bytes += byteLength(v);
  }
  return bytes;
}

function byteLength(value: string | Buffer | null | undefined): number {
  if (value === null || value === undefined) return 0;
  return typeof value === "string" ? Buffer.byteLength(value) : value.length;
}

/** `user:pass@host:port` → `host:port`: kafkajs wants bare addresses, and descriptions never carry userinfo. */
export function stripUserinfo(broker: string): string {
  const at = broker.lastIndexOf("@");
  return at < 0 ? broker : broker.slice(at + 1);
}

function saslOptions(sasl: KafkaSinkConfig["sasl"]): SASLOptions | undefined {
  if (!sasl) return undefined;
  const { username, password } = sasl;
  switch (sasl.mechanism) {
    case "plain":
      return { mechanism: "plain", username, password };
    case "scram-sha-256":
      return { mechanism: "scram-sha-256", username, password };
    case "scram-sha-512":
      return { mechanism: "scram-sha-512", username, password };
  }
}

/**
 * `result`, or a transient failure as soon as `signal` aborts. An aborted delivery may still reach the
 * broker if its request was already sent; delivery is at-least-once, and the consumer dedups.
 */
function untilAborted(
  result: Promise<DeliveryResult>,
  signal: AbortSignal,
  abort?: AttemptAbort,
): Promise<DeliveryResult> {
  return new Promise((resolve) => {
    const stopListening = onAbort(signal, () => resolve(transient(abortReason(signal))), abort);
    void result.then(resolve, (err: unknown) => resolve(classifyKafkaError(err))).finally(stopListening);
  });
}

function abortReason(signal: AbortSignal): string {
  const why: unknown = signal.reason;
  return `kafka send aborted: ${why instanceof Error ? why.message : String(why)}`;
}

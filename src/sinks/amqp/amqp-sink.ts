// The RabbitMQ sink: each hook becomes one queue message v1, published persistent and mandatory to the
// configured exchange, and a delivery is ok only when the broker confirms it. Connection handling, confirm
// correlation, batching and error mapping live beside this file; this one wires them to the Sink contract.
import type { AmqpSinkConfig } from "./config.ts";
import type { DeliveryResult } from "../../domain/error-class.ts";
import type { Delivery } from "../../domain/hook.ts";
import type { AttemptAbort } from "../attempt-abort.ts";
import { encodeQueueMessage, queueMessageHeaders } from "../queue-message.ts";
import { type Sink, type SinkDeps, type SinkDescription, effectiveBatchMax } from "../sink.ts";
import { renderTemplate } from "../template.ts";
import { abortedResult, raceAbort } from "./abort.ts";
import { PublishBatcher } from "./batcher.ts";
import { AmqpConnection } from "./connection.ts";
import { isFailure, transientFailure } from "./errors.ts";
import type { InFlightGauge, PublishRequest } from "./publisher.ts";
import { Slots } from "./slots.ts";

/** Counters a test or an operator can read; none of them is needed to deliver. */
export interface AmqpSinkStats {
  /** Publishes sent to the broker and not yet answered (ack, nack, return or channel close). */
  readonly unconfirmed: number;
  /** The most unconfirmed publishes there ever were at once; never above `max_in_flight`. */
  readonly peakUnconfirmed: number;
  /** Deliveries waiting for an in-flight slot. */
  readonly waitingForSlot: number;
  /** Connections opened so far (1 plus reconnects). */
  readonly connections: number;
  /** Connect attempts made, failed ones included: what a down broker sees of this sink. */
  readonly connectAttempts: number;
  /** Batches published, when batching is on. */
  readonly batches: number;
}

/** The AMQP sink, with its counters. */
export interface AmqpSink extends Sink {
  stats(): AmqpSinkStats;
}

/** The broker as `host:port`, without userinfo. */
export function brokerHost(url: string): string {
  const u = new URL(url);
  const port = u.port || (u.protocol === "amqps:" ? "5671" : "5672");
  return `${u.hostname}:${port}`;
}

function vhostOf(url: string): string {
  const path = new URL(url).pathname;
  return path.length > 1 ? decodeURIComponent(path.slice(1)) : "/";
}

/** Build the AMQP sink `name` (a SinkFactory<AmqpSinkConfig>). Nothing connects until the first delivery. */
export function createAmqpSink(name: string, config: AmqpSinkConfig, deps: SinkDeps): AmqpSink {
  const logger = deps.logger.child({ sink: name });
  const inlineMaxBytes = config.claim_check_bytes ?? deps.defaultClaimCheckBytes;
  const gauge: InFlightGauge = { current: 0, peak: 0 };
  const slots = new Slots(config.max_in_flight);
  const connection = new AmqpConnection({
    url: config.url,
    exchange: config.exchange,
    connectionName: `switchyard/${name}`,
    gauge,
    logger,
  });
  const batcher = config.batch
    ? new PublishBatcher(
        { max: effectiveBatchMax(config.batch.max, deps), maxDelayMs: config.batch.max_delay_ms },
        connection,
        logger,
      )
    : undefined;
  let closed = false;

  function toRequest(delivery: Delivery): PublishRequest {
    return {
      routingKey: renderTemplate(config.routing_key, delivery.hook),
      content: encodeQueueMessage(delivery, inlineMaxBytes),
      messageId: delivery.hook.id,
      headers: queueMessageHeaders(delivery),
    };
  }

  async function publishOne(req: PublishRequest, signal: AbortSignal): Promise<DeliveryResult> {
    const publisher = await connection.acquire(signal);
    if (isFailure(publisher)) return publisher;
    return publisher.publish(req, signal);
  }

  return {
    name,
    type: "amqp",
    inlineMaxBytes,

    async deliver(delivery: Delivery, signal: AbortSignal, abort?: AttemptAbort): Promise<DeliveryResult> {
      if (closed) return transientFailure("sink closed");
      const req = toRequest(delivery);
      if (!(await slots.acquire(signal))) return abortedResult("waiting for an in-flight slot");
      if (closed) {
        slots.release();
        return transientFailure("sink closed");
      }
      // Never rejects; the slot is held until the broker has answered, even if this delivery stops waiting.
      const answered = batcher ? batcher.add(req, signal) : publishOne(req, signal);
      const release = (): void => slots.release();
      answered.then(release, release);
      return raceAbort(answered, signal, "waiting for the broker's confirm", abort);
    },

    describe(): SinkDescription {
      return {
        payload: "message",
        protocol: "amqp",
        host: brokerHost(config.url),
        address: `${config.exchange}/${config.routing_key}`,
        // AsyncAPI amqp channel binding 0.3.0. The exchange's type is not stated: the sink never declares the
        // exchange, so it does not know it.
        bindings: {
          amqp: {
            is: "routingKey",
            exchange: { name: config.exchange, vhost: vhostOf(config.url) },
            bindingVersion: "0.3.0",
          },
        },
      };
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      batcher?.dropAll("sink closed");
      await connection.close();
    },

    stats(): AmqpSinkStats {
      return {
        unconfirmed: gauge.current,
        peakUnconfirmed: gauge.peak,
        waitingForSlot: slots.waiting,
        connections: connection.counts.connections,
        connectAttempts: connection.counts.attempts,
        batches: batcher?.stats.batches ?? 0,
      };
    },
  };
}

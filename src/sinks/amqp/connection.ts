// One broker connection and one confirm channel per sink, opened on first use and reopened after a loss.
// Connect attempts are spaced by a backoff, so a broker that is down or refusing logins is not hammered;
// deliveries sit out the first short waits (a blip) and otherwise fail fast with the last error.
import amqp from "amqplib";
import type { ChannelModel } from "amqplib";
import { boundReason } from "../../domain/error-class.ts";
import type { Logger } from "../../observability/logger.ts";
import { raceAbort } from "./abort.ts";
import { backoffMs } from "./backoff.ts";
import { coalesceFrameWrites } from "./coalesce-writes.ts";
import { classifyAmqpError, isFailure, transientFailure } from "./errors.ts";
import type { FailedResult } from "./errors.ts";
import { ConfirmPublisher } from "./publisher.ts";
import type { InFlightGauge } from "./publisher.ts";

/** What the connection manager needs to know. */
export interface AmqpConnectionOptions {
  readonly url: string;
  readonly exchange: string;
  /** Shown by the broker (`connection_name` client property), so operators can tell sinks apart. */
  readonly connectionName: string;
  readonly gauge: InFlightGauge;
  readonly logger: Logger;
  /** TCP connect + AMQP handshake timeout. */
  readonly connectTimeoutMs?: number;
}

const DEFAULT_HEARTBEAT_S = 15;

/** Deliveries wait out a backoff this short instead of failing; see `connect`. */
const SIT_OUT_BACKOFF_MS = 250;

/** The connection and channel state of one sink. */
export class AmqpConnection {
  private model: ChannelModel | undefined;
  private publisher: ConfirmPublisher | undefined;
  private opening: Promise<ConfirmPublisher | FailedResult> | undefined;
  private failures = 0;
  private retryAt = 0;
  private lastFailure: FailedResult | undefined;
  private closed = false;
  private connects = 0;
  private attempts = 0;

  constructor(private readonly opts: AmqpConnectionOptions) {}

  /** Connections opened, and connect attempts made (for tests and logs). */
  get counts(): { readonly connections: number; readonly attempts: number } {
    return { connections: this.connects, attempts: this.attempts };
  }

  /**
   * An open publisher, connecting and checking the exchange first if needed. Concurrent callers share one
   * attempt. Resolves a failure (never rejects) when the broker is unreachable, refuses us, lacks the exchange,
   * or `signal` aborts.
   */
  async acquire(signal: AbortSignal): Promise<ConfirmPublisher | FailedResult> {
    if (this.closed) return transientFailure("sink closed");
    if (this.publisher?.isOpen) return this.publisher;
    this.opening ??= this.open().finally(() => {
      this.opening = undefined;
    });
    return raceAbort(this.opening, signal, "connecting to the broker");
  }

  /** Close channel and connection; unconfirmed publishes settle as transient. */
  async close(): Promise<void> {
    // An open still in progress is not awaited (a hanging broker would hold close up); it sees `closed` and
    // closes what it opened.
    this.closed = true;
    const { publisher, model } = this;
    this.publisher = undefined;
    this.model = undefined;
    if (publisher) await publisher.close();
    if (model) {
      try {
        await model.close();
      } catch (err) {
        this.opts.logger.debug({ err: errText(err) }, "amqp connection close failed");
      }
    }
  }

  private async open(): Promise<ConfirmPublisher | FailedResult> {
    const model = this.model ?? (await this.connect());
    if (isFailure(model)) return model;
    let publisher: ConfirmPublisher;
    try {
      const channel = await model.createConfirmChannel();
      // Listeners go on before the exchange check: a missing exchange closes the channel with an 'error' event.
      publisher = new ConfirmPublisher(channel, this.opts.exchange, this.opts.gauge, this.opts.logger);
      await channel.checkExchange(this.opts.exchange);
    } catch (err) {
      return classifyAmqpError(err, `exchange "${this.opts.exchange}"`);
    }
    if (this.closed) {
      await publisher.close();
      return transientFailure("sink closed");
    }
    this.failures = 0;
    this.publisher = publisher;
    return publisher;
  }

  private async connect(): Promise<ChannelModel | FailedResult> {
    const wait = this.retryAt - Date.now();
    if (wait > 0) {
      // A short wait (the first retries after a blip) is worth sitting out: failing every delivery that arrives
      // meanwhile would trip the breaker over a reconnect that takes a few hundred ms. Longer: fail fast.
      if (wait > SIT_OUT_BACKOFF_MS && this.lastFailure) {
        return { ...this.lastFailure, failure: withReconnectNote(this.lastFailure.failure, wait) };
      }
      await sleep(wait);
      if (this.closed) return transientFailure("sink closed");
    }
    this.attempts++;
    let model: ChannelModel;
    try {
      model = await amqp.connect(withDefaultHeartbeat(this.opts.url), {
        timeout: this.opts.connectTimeoutMs ?? 10_000,
        // Confirms are small and latency-bound: no Nagle.
        noDelay: true,
        keepAlive: true,
        clientProperties: { connection_name: this.opts.connectionName },
      });
    } catch (err) {
      return this.connectFailed(classifyAmqpError(err, "connect"));
    }
    this.connects++;
    if (!coalesceFrameWrites(model))
      this.opts.logger.debug("amqp frame writes not coalesced: amqplib's internals are not the known shape");
    model.on("error", (err: Error) => {
      this.opts.logger.warn({ err: err.message }, "amqp connection error");
    });
    model.on("close", (err?: Error) => this.onConnectionClosed(model, err));
    model.on("blocked", (reason: string) =>
      this.opts.logger.warn({ reason }, "amqp connection blocked by broker"),
    );
    model.on("unblocked", () => this.opts.logger.info("amqp connection unblocked"));
    if (this.closed) {
      await model.close().catch(() => undefined);
      return transientFailure("sink closed");
    }
    this.model = model;
    return model;
  }

  private connectFailed(failure: FailedResult): FailedResult {
    this.failures++;
    this.retryAt = Date.now() + backoffMs(this.failures);
    this.lastFailure = failure;
    this.opts.logger.warn({ reason: failure.failure.reason, attempt: this.failures }, "amqp connect failed");
    return failure;
  }

  /** The broker or the network dropped us: the channel settles its publishes itself; the next deliver reconnects. */
  private onConnectionClosed(model: ChannelModel, err: Error | undefined): void {
    if (this.model !== model) return;
    this.model = undefined;
    this.publisher = undefined;
    if (this.closed) return;
    this.failures = Math.max(this.failures, 1);
    this.retryAt = Date.now() + backoffMs(this.failures);
    this.lastFailure = transientFailure(`connection lost: ${err ? err.message : "closed"}`);
    this.opts.logger.warn({ err: err?.message }, "amqp connection lost");
  }
}

function withReconnectNote(failure: FailedResult["failure"], waitMs: number): FailedResult["failure"] {
  return {
    ...failure,
    reason: boundReason(`${failure.reason} (next connect attempt in ${Math.ceil(waitMs)} ms)`),
  };
}

/**
 * A broker that vanishes without closing the socket is only noticed by heartbeats; RabbitMQ proposes 60 s, which
 * leaves publishes unconfirmed (and their in-flight slots taken) for two minutes. Ask for 15 s unless the URL
 * says otherwise.
 */
export function withDefaultHeartbeat(url: string): string {
  const u = new URL(url);
  if (u.searchParams.has("heartbeat")) return url;
  u.searchParams.set("heartbeat", String(DEFAULT_HEARTBEAT_S));
  return u.toString();
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function errText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

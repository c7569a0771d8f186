// One ConfirmChannel turned into "publish, then tell me what the broker did with this message": its own ack,
// nack, basic.return or channel close. amqplib gives a callback per publish for ack/nack/close but delivers
// returns as channel events, so returns are matched to publishes by a per-publish id header; RabbitMQ sends a
// message's basic.return before its basic.ack, so the return is known when the confirm callback runs.
import type { ConfirmChannel, Message } from "amqplib";
import { ok } from "../../domain/error-class.ts";
import type { DeliveryResult } from "../../domain/error-class.ts";
import type { Logger } from "../../observability/logger.ts";
import { abortedResult, raceAbort } from "./abort.ts";
import { classifyAmqpError, nacked, transientFailure, unroutable } from "./errors.ts";
import type { FailedResult } from "./errors.ts";

/** The header that correlates a basic.return with its publish. Unique per channel. */
export const PUBLISH_ID_HEADER = "x-switchyard-publish-id";

/** One message to publish to the sink's exchange. */
export interface PublishRequest {
  readonly routingKey: string;
  readonly content: Buffer;
  readonly messageId: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** Unconfirmed publishes, shared by every channel a sink opens (for the `max_in_flight` bound and tests). */
export interface InFlightGauge {
  current: number;
  peak: number;
}

interface Pending {
  readonly routingKey: string;
  returned: FailedResult | undefined;
}

/** Publishes on one confirm channel and settles each publish from the broker's own answer to it. */
export class ConfirmPublisher {
  private readonly pending = new Map<string, Pending>();
  private seq = 0;
  private open = true;
  /** Why the broker closed the channel (set by the 'error' event, which amqplib emits before 'close'). */
  private closeCause: unknown;
  private causeBlamed = false;
  private writable = true;
  private readonly drainWaiters = new Set<() => void>();

  constructor(
    private readonly channel: ConfirmChannel,
    private readonly exchange: string,
    private readonly gauge: InFlightGauge,
    private readonly logger: Logger,
  ) {
    channel.on("return", (msg: Message) => this.onReturn(msg));
    channel.on("error", (err: Error) => {
      this.closeCause = err;
      logger.warn({ err: err.message, exchange }, "amqp channel closed by the broker");
    });
    channel.on("close", () => {
      this.open = false;
      this.wakeDrainWaiters();
    });
    channel.on("drain", () => {
      this.writable = true;
      this.wakeDrainWaiters();
    });
  }

  /** False once the channel has closed, for whatever reason; a closed publisher is never reused. */
  get isOpen(): boolean {
    return this.open;
  }

  /** Publishes sent on this channel that the broker has not answered yet. */
  get unconfirmed(): number {
    return this.pending.size;
  }

  /**
   * Publish one persistent, mandatory message. Resolves (never rejects) once the broker has answered: ok on an
   * ack, unroutable on a return, transient on a nack, classified on a channel close. Waits first, bounded by
   * `signal`, if the socket is not taking more data.
   */
  async publish(req: PublishRequest, signal: AbortSignal): Promise<DeliveryResult> {
    if (!this.writable && this.open) {
      const drained = await raceAbort(this.drained(), signal, "waiting for the broker socket to drain");
      if (drained !== undefined) return drained;
    }
    if (signal.aborted) return abortedResult("publishing");
    return this.publishNow(req);
  }

  /** Publish without waiting for the socket to drain: for batches, which are bounded by their size. */
  publishNow(req: PublishRequest): Promise<DeliveryResult> {
    if (!this.open) return Promise.resolve(this.closedResult());
    const id = String(++this.seq);
    const entry: Pending = { routingKey: req.routingKey, returned: undefined };
    return new Promise<DeliveryResult>((resolve) => {
      const settle = (err: unknown): void => {
        this.pending.delete(id);
        this.gauge.current--;
        resolve(this.resultOf(entry, err));
      };
      this.pending.set(id, entry);
      this.gauge.current++;
      if (this.gauge.current > this.gauge.peak) this.gauge.peak = this.gauge.current;
      try {
        const more = this.channel.publish(
          this.exchange,
          req.routingKey,
          req.content,
          {
            persistent: true,
            mandatory: true,
            contentType: "application/json",
            messageId: req.messageId,
            headers: { ...req.headers, [PUBLISH_ID_HEADER]: id },
          },
          (err: unknown) => settle(err),
        );
        if (!more) this.writable = false;
      } catch (err) {
        // A channel that closed a moment ago throws IllegalOperationError; the callback will not run.
        this.pending.delete(id);
        this.gauge.current--;
        resolve(classifyAmqpError(err, "publish"));
      }
    });
  }

  /** Close the channel; anything unconfirmed settles as transient ("channel closed"). */
  async close(): Promise<void> {
    if (!this.open) return;
    try {
      await this.channel.close();
    } catch (err) {
      this.logger.debug(
        { err: err instanceof Error ? err.message : String(err) },
        "amqp channel close failed",
      );
    }
  }

  private resultOf(entry: Pending, err: unknown): DeliveryResult {
    if (err === null || err === undefined) return entry.returned ?? ok;
    if (err instanceof Error && err.message === "message nacked") return nacked();
    return this.closedResult();
  }

  /**
   * A publish that the channel's closing took with it. If the broker closed the channel because of a publish
   * (404 exchange gone, 403 refused), the oldest unconfirmed publish is the one it refused, since RabbitMQ
   * answers in order: that one gets the classified error, the rest were merely cut off and are transient.
   */
  private closedResult(): FailedResult {
    if (this.closeCause === undefined) return transientFailure("channel closed before the broker confirmed");
    const classified = classifyAmqpError(this.closeCause, "publish");
    if (!this.causeBlamed && classified.failure.kind === "permanent") {
      this.causeBlamed = true;
      return classified;
    }
    return transientFailure(`channel closed before the broker confirmed: ${classified.failure.reason}`);
  }

  private onReturn(msg: Message): void {
    const raw: unknown = msg.properties.headers?.[PUBLISH_ID_HEADER];
    const id = Buffer.isBuffer(raw) ? raw.toString() : typeof raw === "string" ? raw : undefined;
    const entry = id === undefined ? undefined : this.pending.get(id);
    if (!entry) {
      this.logger.warn({ exchange: this.exchange }, "amqp basic.return for an unknown publish");
      return;
    }
    const fields = msg.fields as unknown as { replyCode?: unknown; replyText?: unknown };
    const code = typeof fields.replyCode === "number" ? fields.replyCode : 312;
    const text = typeof fields.replyText === "string" ? fields.replyText : "NO_ROUTE";
    entry.returned = unroutable(entry.routingKey, code, text);
  }

  private drained(): Promise<undefined> {
    return new Promise((resolve) => {
      const wake = (): void => {
        this.drainWaiters.delete(wake);
        resolve(undefined);
      };
      this.drainWaiters.add(wake);
    });
  }

  private wakeDrainWaiters(): void {
    for (const wake of [...this.drainWaiters]) wake();
  }
}

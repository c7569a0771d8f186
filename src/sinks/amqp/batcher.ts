// Optional batching (`batch: { max, max_delay_ms }`): deliveries that arrive within `max_delay_ms` of each other
// are published back to back on one channel and their confirms awaited together, which saves a channel
// lookup and an event-loop turn per message under load. Each delivery still gets its own broker answer
// (its own ack, nack or return), as soon as that answer arrives.
import type { DeliveryResult } from "../../domain/error-class.ts";
import type { Logger } from "../../observability/logger.ts";
import { abortedResult } from "./abort.ts";
import type { AmqpConnection } from "./connection.ts";
import { isFailure, transientFailure } from "./errors.ts";
import type { PublishRequest } from "./publisher.ts";

/** `config.batch`, in the sink's units. */
export interface BatchOptions {
  readonly max: number;
  readonly maxDelayMs: number;
}

interface Item {
  readonly req: PublishRequest;
  readonly signal: AbortSignal;
  readonly resolve: (result: DeliveryResult) => void;
  readonly onAbort: () => void;
}

/** A flush waits for the channel regardless of any one delivery; each delivery's own wait is bounded by its signal. */
const NEVER_ABORTS = new AbortController().signal;

/** Gathers publishes into batches for one sink. */
export class PublishBatcher {
  private queue: Item[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushed = 0;
  private largest = 0;

  constructor(
    private readonly opts: BatchOptions,
    private readonly connection: AmqpConnection,
    private readonly logger: Logger,
  ) {}

  /** Batches published so far, and the largest of them (for tests and diagnostics). */
  get stats(): { readonly batches: number; readonly largest: number } {
    return { batches: this.flushed, largest: this.largest };
  }

  /**
   * Queue one publish. Resolves, never rejects, with the broker's answer to it, or with a transient failure if
   * `signal` aborts before its batch goes out.
   */
  add(req: PublishRequest, signal: AbortSignal): Promise<DeliveryResult> {
    if (signal.aborted) return Promise.resolve(abortedResult("waiting for a batch"));
    return new Promise<DeliveryResult>((resolve) => {
      const item: Item = {
        req,
        signal,
        resolve,
        onAbort: () => {
          const i = this.queue.indexOf(item);
          if (i < 0) return;
          this.queue.splice(i, 1);
          resolve(abortedResult("waiting for a batch"));
        },
      };
      signal.addEventListener("abort", item.onAbort, { once: true });
      this.queue.push(item);
      if (this.queue.length >= this.opts.max) this.flushNow();
      else this.timer ??= setTimeout(() => this.flushNow(), this.opts.maxDelayMs);
    });
  }

  /** Settle everything not yet published as transient: the sink is closing. */
  dropAll(reason: string): void {
    this.clearTimer();
    for (const item of this.queue.splice(0)) {
      item.signal.removeEventListener("abort", item.onAbort);
      item.resolve(transientFailure(reason));
    }
  }

  private flushNow(): void {
    this.clearTimer();
    const items = this.queue.splice(0, this.opts.max);
    if (this.queue.length > 0) this.timer = setTimeout(() => this.flushNow(), this.opts.maxDelayMs);
    if (items.length === 0) return;
    this.flush(items).catch((err: unknown) => {
      this.logger.error({ err: err instanceof Error ? err.message : String(err) }, "amqp batch flush failed");
      for (const item of items) item.resolve(transientFailure("batch flush failed"));
    });
  }

  private async flush(items: Item[]): Promise<void> {
    for (const item of items) item.signal.removeEventListener("abort", item.onAbort);
    const publisher = await this.connection.acquire(NEVER_ABORTS);
    if (isFailure(publisher)) {
      for (const item of items) item.resolve(publisher);
      return;
    }
    // Back to back, no await in between: the frames go out together.
    const answers = items.map((item) =>
      item.signal.aborted
        ? Promise.resolve(abortedResult("waiting for a batch"))
        : publisher.publishNow(item.req),
    );
    answers.forEach((answer, i) => void answer.then(items[i]?.resolve));
    this.flushed++;
    this.largest = Math.max(this.largest, items.length);
    // One wait for the whole batch's confirms; a batch ends only when the broker has answered each message.
    const results = await Promise.all(answers);
    const failed = results.filter((r) => !r.ok).length;
    if (failed > 0) this.logger.debug({ size: items.length, failed }, "amqp batch partly failed");
  }

  private clearTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

// Micro-batching of concurrent deliveries into one broker request. Items that arrive within
// `maxDelayMs` of the first queued one (or until `max` are queued, or `maxBytes` would be passed) are
// flushed together and every caller gets the result of that one flush. Generic over item and result,
// so any queue sink can use it.
import { type AttemptAbort, onAbort } from "../attempt-abort.ts";

export interface BatcherOptions<T, R> {
  /** Flush as soon as this many items are queued. */
  readonly max: number;
  /** Flush this long after the first item of a batch was queued (0: on the next macrotask). */
  readonly maxDelayMs: number;
  /**
   * A batch's items add up to at most this many bytes by `sizeOf` (brokers refuse a request over their
   * limit whole); an item larger than this on its own goes alone.
   */
  readonly maxBytes?: number;
  readonly sizeOf?: (item: T) => number;
  /** Sends one batch. Its result (or rejection) is shared by every item in it. */
  readonly flush: (items: T[]) => Promise<R>;
}

interface Pending<T, R> {
  readonly item: T;
  readonly size: number;
  readonly resolve: (r: R) => void;
  readonly reject: (err: unknown) => void;
  /** Stops listening for the caller's abort (the item is on the wire). */
  detach: () => void;
}

export class Batcher<T, R> {
  private queued: Pending<T, R>[] = [];
  private queuedBytes = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly opts: BatcherOptions<T, R>) {}

  /**
   * Queue `item` for the next batch. If `signal` aborts while the item is still queued, the item is
   * taken out (it will not be sent) and the promise rejects with the abort reason; once the batch has
   * been flushed the item is on the wire and the promise settles with the batch's result.
   */
  add(item: T, signal?: AbortSignal, abort?: AttemptAbort): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const aborted = (): void => {
        if (this.queued.includes(pending)) this.queuedBytes -= pending.size;
        this.queued = this.queued.filter((p) => p !== pending);
        if (this.queued.length === 0) this.clearTimer();
        reject(signal?.reason);
      };
      const size = this.opts.sizeOf?.(item) ?? 0;
      const pending: Pending<T, R> = { item, size, resolve, reject, detach: () => undefined };
      if (signal) pending.detach = onAbort(signal, aborted, abort);
      // What is queued goes first if this item would take it past the byte cap.
      if (this.queued.length > 0 && this.queuedBytes + size > this.maxBytes) this.flushNow();
      this.queued.push(pending);
      this.queuedBytes += size;
      if (this.queued.length >= this.opts.max || this.queuedBytes >= this.maxBytes) this.flushNow();
      else this.timer ??= setTimeout(() => this.flushNow(), this.opts.maxDelayMs);
    });
  }

  /** Send whatever is queued now and wait for every batch in flight. */
  async drain(): Promise<void> {
    while (this.queued.length > 0) this.flushNow();
    await Promise.all(this.inFlight);
  }

  private get maxBytes(): number {
    return this.opts.maxBytes ?? Number.POSITIVE_INFINITY;
  }

  /** How many of the queued items, from the front, fit one batch (always at least one). */
  private fitting(): number {
    let n = 0;
    let bytes = 0;
    for (const p of this.queued) {
      if (n >= this.opts.max || (n > 0 && bytes + p.size > this.maxBytes)) break;
      bytes += p.size;
      n++;
    }
    return n;
  }

  private flushNow(): void {
    this.clearTimer();
    const batch = this.queued.splice(0, this.fitting());
    for (const p of batch) this.queuedBytes -= p.size;
    if (this.queued.length > 0) this.timer = setTimeout(() => this.flushNow(), this.opts.maxDelayMs);
    for (const p of batch) p.detach();
    const sent = this.send(batch);
    this.inFlight.add(sent);
    void sent.finally(() => this.inFlight.delete(sent));
  }

  private async send(batch: Pending<T, R>[]): Promise<void> {
    try {
      const result = await this.opts.flush(batch.map((p) => p.item));
      for (const p of batch) p.resolve(result);
    } catch (err) {
      for (const p of batch) p.reject(err);
    }
  }

  private clearTimer(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

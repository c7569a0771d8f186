// Micro-batching of concurrent deliveries into one broker request. Items that arrive within
// `maxDelayMs` of the first queued one (or until `max` are queued) are flushed together and every
// caller gets the result of that one flush. Generic over item and result, so any queue sink can use it.

export interface BatcherOptions<T, R> {
  /** Flush as soon as this many items are queued. */
  readonly max: number;
  /** Flush this long after the first item of a batch was queued (0: on the next macrotask). */
  readonly maxDelayMs: number;
  /** Sends one batch. Its result (or rejection) is shared by every item in it. */
  readonly flush: (items: T[]) => Promise<R>;
}

interface Pending<T, R> {
  readonly item: T;
  readonly resolve: (r: R) => void;
  readonly reject: (err: unknown) => void;
  readonly detach: () => void;
}

export class Batcher<T, R> {
  private queued: Pending<T, R>[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly opts: BatcherOptions<T, R>) {}

  /**
   * Queue `item` for the next batch. If `signal` aborts while the item is still queued, the item is
   * taken out (it will not be sent) and the promise rejects with the abort reason; once the batch has
   * been flushed the item is on the wire and the promise settles with the batch's result.
   */
  add(item: T, signal?: AbortSignal): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = (): void => {
        this.queued = this.queued.filter((p) => p !== pending);
        if (this.queued.length === 0) this.clearTimer();
        reject(signal?.reason);
      };
      const detach = (): void => signal?.removeEventListener("abort", onAbort);
      const pending: Pending<T, R> = { item, resolve, reject, detach };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.queued.push(pending);
      if (this.queued.length >= this.opts.max) this.flushNow();
      else this.timer ??= setTimeout(() => this.flushNow(), this.opts.maxDelayMs);
    });
  }

  /** Send whatever is queued now and wait for every batch in flight. */
  async drain(): Promise<void> {
    if (this.queued.length > 0) this.flushNow();
    await Promise.all(this.inFlight);
  }

  private flushNow(): void {
    this.clearTimer();
    const batch = this.queued.splice(0, this.opts.max);
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

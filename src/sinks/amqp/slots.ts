// The bound on unconfirmed publishes per connection (`max_in_flight`). A delivery takes a slot before it
// publishes and gives it back only when the broker has answered, so the bound holds even for deliveries whose
// caller gave up waiting (their publish is still on the wire).

/** A FIFO counting semaphore whose waits can be aborted. */
export class Slots {
  private used = 0;
  private highWater = 0;
  private readonly waiters: Array<() => void> = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`slot limit must be >= 1, got ${limit}`);
  }

  /** Slots taken right now. */
  get inUse(): number {
    return this.used;
  }

  /** The most slots ever taken at once. */
  get peak(): number {
    return this.highWater;
  }

  /** Deliveries waiting for a slot. */
  get waiting(): number {
    return this.waiters.length;
  }

  /** Take a slot, waiting for one if all are taken. Resolves `false` (holding nothing) if `signal` aborts first. */
  acquire(signal: AbortSignal): Promise<boolean> {
    if (signal.aborted) return Promise.resolve(false);
    if (this.used < this.limit && this.waiters.length === 0) {
      this.take();
      return Promise.resolve(true);
    }
    return new Promise<boolean>((resolve) => {
      const grant = (): void => {
        signal.removeEventListener("abort", onAbort);
        this.take();
        resolve(true);
      };
      const onAbort = (): void => {
        const i = this.waiters.indexOf(grant);
        if (i >= 0) this.waiters.splice(i, 1);
        resolve(false);
      };
      this.waiters.push(grant);
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** Give a slot back; the longest waiter gets it. */
  release(): void {
    if (this.used === 0) throw new Error("release without acquire");
    this.used--;
    const next = this.waiters.shift();
    if (next) next();
  }

  private take(): void {
    this.used++;
    if (this.used > this.highWater) this.highWater = this.used;
  }
}

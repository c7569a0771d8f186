// Coalesces writes made within one event-loop tick into one Redis call. Many workers finishing at once
// (or many requests arriving at once) then cost one round trip and one command, not one each; every
// caller still gets its own result. A batch closes at the end of the tick it was opened in, or at once
// when it reaches its size cap: it never waits on a timer.

export class TickBatch<T, R> {
  private items: T[] = [];
  private waiters: { resolve: (r: R) => void; reject: (e: unknown) => void }[] = [];
  private scheduled = false;

  /**
   * `flush` gets the items in order and returns one result per item, in the same order. `maxItems`
   * bounds one flush (and so one command's size).
   */
  constructor(
    private readonly flush: (items: readonly T[]) => Promise<readonly R[]>,
    private readonly maxItems = Infinity,
  ) {}

  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.items.push(item);
      this.waiters.push({ resolve, reject });
      if (this.items.length >= this.maxItems) void this.run();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.run());
      }
    });
  }

  private async run(): Promise<void> {
    if (this.items.length === 0) return;
    const items = this.items;
    const waiters = this.waiters;
    this.items = [];
    this.waiters = [];
    this.scheduled = false;
    try {
      const results = await this.flush(items);
      waiters.forEach((w, i) => w.resolve(results[i] as R));
    } catch (err) {
      for (const w of waiters) w.reject(err);
    }
  }
}

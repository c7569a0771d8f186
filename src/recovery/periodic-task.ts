// A body run every interval, never two at once (recovery sweeps, the legacy queue watchers): a run
// that outlasts the interval makes the next tick skip rather than overlap it, and stop() waits for the
// run in progress. The timer does not keep the process alive.
export class PeriodicTask {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly body: () => Promise<void>,
    private readonly everyMs: number,
  ) {}

  /** Start ticking (the first run one interval from now). */
  start(): void {
    this.timer = setInterval(() => {
      this.running ??= this.body().finally(() => (this.running = undefined));
    }, this.everyMs);
    this.timer.unref();
  }

  /** Stop ticking, and wait for a run in progress. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}

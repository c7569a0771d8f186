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
    this.timer = setInterval(() => void this.run(), this.everyMs);
    this.timer.unref();
  }

  /** Run once now (what is there at start is handled at once), then tick; resolves after that first run. */
  async startNow(): Promise<void> {
    this.start();
    await this.run();
  }

  private run(): Promise<void> {
    return (this.running ??= this.body().finally(() => (this.running = undefined)));
  }

  /** Stop ticking, and wait for a run in progress. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}

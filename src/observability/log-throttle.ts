// One warning per interval for a condition that would otherwise log once per job: during a Redis
// outage every parked delivery hits the same error every few seconds, and a log of thousands of
// identical lines hides the one that says what happened. The first occurrence logs at once; later ones
// within the interval are counted and reported with the next line.
import type { Logger } from "./logger.ts";

export class LogThrottle {
  private lastAt = -Infinity;
  private suppressed = 0;

  constructor(
    private readonly intervalMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Log `msg` at warn unless one was logged within the interval; then count it instead. */
  warn(logger: Logger, fields: Record<string, unknown>, msg: string): void {
    const t = this.now();
    if (t - this.lastAt < this.intervalMs) {
      this.suppressed++;
      return;
    }
    const suppressed = this.suppressed;
    this.lastAt = t;
    this.suppressed = 0;
    logger.warn(suppressed > 0 ? { ...fields, suppressed } : fields, msg);
  }
}

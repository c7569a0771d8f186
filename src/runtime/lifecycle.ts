// Start things in order and stop them in reverse: the last thing started (the HTTP server) stops
// first, the first (Redis) last, so nothing is used after it is closed.
import type { Logger } from "../observability/logger.ts";

export class Lifecycle {
  private readonly stops: { name: string; stop: () => Promise<void> }[] = [];
  private stopping: Promise<void> | undefined;

  constructor(private readonly logger: Logger) {}

  /** Register what undoes a step that has just started. */
  onStop(name: string, stop: () => Promise<void>): void {
    this.stops.push({ name, stop });
  }

  /** Run every stop, last registered first; a failing stop is logged and the rest still run. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      for (const { name, stop } of [...this.stops].reverse()) {
        try {
          await stop();
        } catch (err) {
          this.logger.error({ err: (err as Error).message, step: name }, "error while stopping");
        }
      }
    })();
    return this.stopping;
  }
}

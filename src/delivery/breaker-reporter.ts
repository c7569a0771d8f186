// Tells the API process what this process's sink breakers are doing: each change is written to the
// breaker board in Redis right after it happens, and the whole set again on a heartbeat, so the report
// of a process that dies lapses within a few heartbeats instead of showing an open breaker forever.
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { Logger } from "../observability/logger.ts";
import type { BreakerBoard, SinkBreakerReport } from "../store/breaker-board.ts";
import type { BreakerStateName } from "./breaker-cache.ts";

export const REPORT_INTERVAL_MS = 5000;

/** A breaker as the reporter reads it when it writes. */
export interface LiveBreaker {
  readonly state: BreakerStateName;
  readonly openUntil: number | undefined;
}

/** This process as the board names it: host and pid say where to look, the suffix tells restarts apart. */
export function reporterId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
}

export interface BreakerReporterOptions {
  readonly board: BreakerBoard;
  readonly logger: Logger;
  /** The breakers of this process by sink, read at each write. */
  readonly breakers: () => ReadonlyMap<string, LiveBreaker>;
  readonly id?: string;
  readonly intervalMs?: number;
  readonly now?: () => number;
}

export class BreakerReporter {
  readonly id: string;
  private readonly changedAt = new Map<string, number>();
  private readonly intervalMs: number;
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly options: BreakerReporterOptions) {
    this.id = options.id ?? reporterId();
    this.intervalMs = options.intervalMs ?? REPORT_INTERVAL_MS;
    this.now = options.now ?? Date.now;
  }

  /**
   * `sink`'s breaker changed state. The write waits for the current turn of the event loop to end: a
   * breaker may still be updating its open period when it announces the change.
   */
  changed(sink: string): void {
    this.changedAt.set(sink, this.now());
    if (this.timer !== undefined) setImmediate(() => this.write());
  }

  /** Write now, then every interval. */
  start(): void {
    if (this.stopped || this.timer !== undefined) return;
    this.write();
    this.timer = setInterval(() => this.write(), this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.timer = undefined;
    await this.options.board.withdraw(this.id).catch((err: Error) => {
      this.options.logger.debug({ err: err.message }, "could not withdraw the breaker report");
    });
  }

  private write(): void {
    if (this.stopped) return;
    const reports = new Map<string, SinkBreakerReport>();
    for (const [sink, live] of this.options.breakers()) {
      const changedAt = this.changedAt.get(sink) ?? this.now();
      this.changedAt.set(sink, changedAt);
      reports.set(sink, { state: live.state, changedAt, openUntil: live.openUntil });
    }
    // Three missed heartbeats and the report lapses.
    this.options.board.report(this.id, reports, this.intervalMs * 3).catch((err: Error) => {
      this.options.logger.debug({ err: err.message }, "could not write the breaker report");
    });
  }
}

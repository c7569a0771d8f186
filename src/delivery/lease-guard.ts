// An attempt never outlives its lease. A worker cut off from Redis (or whose row another worker has
// claimed) cannot renew, and once its lease lapses recovery or another worker may send the delivery
// again: if the first attempt were still running, the receiver would get two at once. The guard renews
// the lease while the attempt runs and, when a renewal is refused or none has been confirmed by a margin
// before the lease ends, cancels the attempt, so it ends before anyone else may start.
import type { Cancellation } from "./safe-deliver.ts";

export interface LeaseGuardOptions {
  /** Extend the lease to `until`; false when it was refused (another writer holds the row). */
  readonly renew: (until: number) => Promise<boolean>;
  readonly leaseMs: number;
  /** When the lease held now runs out. */
  readonly until: number;
  readonly now: () => number;
}

export class LeaseGuard implements Cancellation {
  private confirmedUntil: number;
  private lostWhy: string | undefined;
  private readonly cancels = new Set<(why: string) => void>();
  /** When the next renewal is due. */
  private renewAt: number;
  /**
   * One timer per attempt, at the next renewal or, once a renewal is overdue, at the deadline: most
   * attempts end before their first renewal, so the hot path arms (and clears) a single timer.
   */
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly opts: LeaseGuardOptions) {
    this.confirmedUntil = opts.until;
    this.renewAt = opts.now() + this.everyMs;
    this.arm();
  }

  /** Why the lease was given up, once it was. */
  get lost(): string | undefined {
    return this.lostWhy;
  }

  track(cancel: (why: string) => void): () => void {
    if (this.lostWhy !== undefined) cancel(this.lostWhy);
    this.cancels.add(cancel);
    return () => this.cancels.delete(cancel);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.cancels.clear();
  }

  private get everyMs(): number {
    return Math.max(100, Math.floor(this.opts.leaseMs / 3));
  }

  /** The margin kept before the lease ends: time for the cancelled attempt to stop. */
  private get marginMs(): number {
    return Math.max(50, Math.floor(this.opts.leaseMs / 5));
  }

  private get deadline(): number {
    return this.confirmedUntil - this.marginMs;
  }

  private arm(): void {
    clearTimeout(this.timer);
    if (this.stopped || this.lostWhy !== undefined) return;
    const at = Math.min(this.renewAt, this.deadline);
    this.timer = setTimeout(() => this.wake(), Math.max(0, at - this.opts.now()));
  }

  private wake(): void {
    const now = this.opts.now();
    if (now >= this.deadline) return this.giveUp("lease could not be renewed");
    if (now >= this.renewAt) {
      this.renewAt = now + this.everyMs;
      this.renew(now + this.opts.leaseMs);
    }
    this.arm();
  }

  private renew(until: number): void {
    this.opts.renew(until).then(
      (ok) => {
        if (this.stopped || this.lostWhy !== undefined) return;
        if (!ok) return this.giveUp("lease taken over by another worker");
        if (until <= this.confirmedUntil) return;
        this.confirmedUntil = until;
        this.arm();
      },
      // Redis away: the deadline decides, not one failed call.
      () => undefined,
    );
  }

  private giveUp(why: string): void {
    if (this.lostWhy !== undefined) return;
    this.lostWhy = why;
    clearTimeout(this.timer);
    for (const cancel of this.cancels) cancel(why);
  }
}

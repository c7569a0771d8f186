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
  private readonly renewal: NodeJS.Timeout;
  private deadline: NodeJS.Timeout | undefined;

  constructor(private readonly opts: LeaseGuardOptions) {
    this.confirmedUntil = opts.until;
    this.renewal = setInterval(() => this.renew(), Math.max(100, Math.floor(opts.leaseMs / 3)));
    this.armDeadline();
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
    clearInterval(this.renewal);
    clearTimeout(this.deadline);
    this.cancels.clear();
  }

  /** The margin kept before the lease ends: time for the cancelled attempt to stop. */
  private get marginMs(): number {
    return Math.max(50, Math.floor(this.opts.leaseMs / 5));
  }

  private armDeadline(): void {
    clearTimeout(this.deadline);
    const wait = this.confirmedUntil - this.marginMs - this.opts.now();
    this.deadline = setTimeout(() => this.giveUp("lease could not be renewed"), Math.max(0, wait));
  }

  private renew(): void {
    if (this.lostWhy !== undefined) return;
    const until = this.opts.now() + this.opts.leaseMs;
    this.opts.renew(until).then(
      (ok) => {
        if (this.lostWhy !== undefined) return;
        if (!ok) return this.giveUp("lease taken over by another worker");
        this.confirmedUntil = until;
        this.armDeadline();
      },
      // Redis away: the deadline decides, not one failed call.
      () => undefined,
    );
  }

  private giveUp(why: string): void {
    if (this.lostWhy !== undefined) return;
    this.lostWhy = why;
    clearInterval(this.renewal);
    clearTimeout(this.deadline);
    for (const cancel of this.cancels) cancel(why);
  }
}

// The pace of a replay: a token bucket, so a replay of a million entries at 1000/s never floods a
// sink that has just come back. A new replay's bucket starts empty, and one resumed after a hand-back
// with what the pause since its last step has earned (at most a burst), so no window of t seconds
// moves more than rate·t + burst, however often the replay changes runners.

/** A token bucket with `ratePerS` refill and `burst` capacity; time is passed in for testability. */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly ratePerS: number,
    readonly burst: number,
    now: number,
    /** Tokens already earned (e.g. since the replay's last step), capped at `burst`. */
    initial = 0,
  ) {
    this.last = now;
    this.tokens = Math.min(burst, Math.max(0, initial));
  }

  private refill(now: number): void {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) * this.ratePerS) / 1000);
    this.last = now;
  }

  /** Whole tokens available now. */
  available(now: number): number {
    this.refill(now);
    return Math.floor(this.tokens);
  }

  /** Spend `n` tokens (callers take at most what `available` said). */
  take(n: number, now: number): void {
    this.refill(now);
    this.tokens -= n;
  }

  /** Milliseconds until `n` tokens are available (0 if they are). */
  msUntil(n: number, now: number): number {
    this.refill(now);
    return this.tokens >= n ? 0 : Math.ceil(((n - this.tokens) * 1000) / this.ratePerS);
  }
}

/** How many entries a replay moves per step: about a tenth of a second's worth, 1..500. */
export function batchSize(ratePerS: number): number {
  return Math.max(1, Math.min(500, Math.ceil(ratePerS / 10)));
}

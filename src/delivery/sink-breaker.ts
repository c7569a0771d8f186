// The circuit breaker of one sink in this process, on opossum. opossum gives the state machine
// (closed → open → half-open → closed/open, with a reset timer); we add what the SPEC asks on top:
// open after N *consecutive* countable failures, an open period that doubles per consecutive open,
// and exactly one probe while half-open.
import CircuitBreaker from "opossum";
import type { BreakerConfig } from "../config/schema.ts";
import { type DeliveryResult, cancelled, countsForBreaker } from "../domain/error-class.ts";

export type BreakerGate =
  { readonly pass: true; readonly probe: boolean } | { readonly pass: false; readonly parkUntil: number };
export type BreakerStateName = "closed" | "half_open" | "open";
/** A failure opossum must count; carries the result through the rejection. */
class CountedFailure extends Error {
  constructor(readonly result: DeliveryResult) {
    super("counted sink failure");
  }
}

type Attempt = () => Promise<DeliveryResult>;

export class SinkBreaker {
  private readonly breaker: CircuitBreaker<[Attempt], DeliveryResult>;
  private consecutiveFailures = 0;
  private consecutiveOpens = 0;
  private openedAt = 0;
  private probeInFlight = false;
  private probeStartedAt = 0;

  /**
   * `probeDeadlineMs`: how long a probe can take at most (the attempt timeout); jobs arriving while it
   * runs are parked until then, so they wake once per probe rather than every second.
   */
  constructor(
    private readonly config: BreakerConfig,
    private readonly onStateChange: (state: BreakerStateName) => void = () => undefined,
    private readonly now: () => number = Date.now,
    private readonly probeDeadlineMs: number = Math.min(config.open_ms, 1000),
  ) {
    this.breaker = new CircuitBreaker<[Attempt], DeliveryResult>(
      async (attempt: Attempt) => {
        const result = await attempt();
        if (!result.ok && countsForBreaker(result.failure)) throw new CountedFailure(result);
        return result;
      },
      {
        timeout: false, // the attempt has its own timeout
        resetTimeout: config.open_ms,
        // We decide when to open (consecutive failures); keep opossum's percentage rule out of the way.
        errorThresholdPercentage: 100,
        volumeThreshold: Number.MAX_SAFE_INTEGER,
      },
    );
    this.breaker.on("open", () => this.onStateChange("open"));
    this.breaker.on("halfOpen", () => this.onStateChange("half_open"));
    this.breaker.on("close", () => this.onStateChange("closed"));
  }

  get state(): BreakerStateName {
    if (this.breaker.opened) return "open";
    if (this.breaker.halfOpen) return "half_open";
    return "closed";
  }

  /** End of the current open period (ms), while open; undefined otherwise. */
  get openUntil(): number | undefined {
    return this.breaker.opened ? this.openedAt + this.openPeriodMs() : undefined;
  }

  /** May an attempt run now? If not, until when should its job be parked? */
  gate(): BreakerGate {
    if (this.breaker.opened) return { pass: false, parkUntil: this.openedAt + this.openPeriodMs() };
    if (!this.breaker.halfOpen) return { pass: true, probe: false };
    // One probe decides; the rest wait for its answer.
    if (this.probeInFlight) return { pass: false, parkUntil: this.probeStartedAt + this.probeDeadlineMs };
    this.probeInFlight = true;
    this.probeStartedAt = this.now();
    // If the probe fails opossum re-opens at once and reads the period then: make it the doubled one.
    this.setResetTimeout(this.openPeriodMs(this.consecutiveOpens + 1));
    return { pass: true, probe: true };
  }

  /** A gate that let an attempt through whose delivery then turned out to need no attempt. */
  release(gate: BreakerGate): void {
    if (gate.pass && gate.probe) this.probeInFlight = false;
  }

  /** Run an attempt that `gate()` let through, and count its result. */
  async run(attempt: Attempt, probe: boolean): Promise<DeliveryResult> {
    try {
      const result = await this.breaker.fire(attempt);
      this.consecutiveFailures = 0;
      if (probe) this.consecutiveOpens = 0;
      return result;
    } catch (err) {
      // The breaker opened between our gate and this attempt: nothing was sent, nothing counts.
      if ((err as { code?: unknown }).code === "EOPENBREAKER")
        return cancelled("the breaker opened before the attempt started");
      if (!(err instanceof CountedFailure)) throw err;
      this.onCountedFailure(probe);
      return err.result;
    } finally {
      if (probe) this.probeInFlight = false;
    }
  }

  private onCountedFailure(probe: boolean): void {
    if (probe) {
      // opossum has re-opened the breaker with the period set in gate().
      this.consecutiveOpens += 1;
      this.openedAt = this.now();
      return;
    }
    if (this.breaker.opened) return; // an attempt that started before the breaker opened
    this.consecutiveFailures += 1;
    if (this.consecutiveFailures >= this.config.failures) {
      this.consecutiveOpens += 1;
      this.consecutiveFailures = 0;
      this.openedAt = this.now();
      this.setResetTimeout(this.openPeriodMs());
      this.breaker.open();
    }
  }

  /** opossum reads `options.resetTimeout` each time it opens; its typings do not expose `options`. */
  private setResetTimeout(ms: number): void {
    (this.breaker as unknown as { options: { resetTimeout: number } }).options.resetTimeout = ms;
  }

  /** open_ms, doubled per consecutive open, capped at max_open_ms. */
  private openPeriodMs(opens: number = this.consecutiveOpens): number {
    return Math.min(this.config.max_open_ms, this.config.open_ms * 2 ** Math.max(0, opens - 1));
  }

  shutdown(): void {
    this.breaker.shutdown();
  }
}

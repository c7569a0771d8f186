// A per-target delivery rate that every worker process shares. Several processes deliver to the same
// destination, so a limit kept in one process's memory is not a limit; this one lives in Redis, as one
// GCRA timestamp per target, checked and advanced in one Lua call (src/store/lua/take-rate-slot-1.lua).
//
// Time: the script reads Redis's clock rather than taking the caller's `now`. Any scheme on callers'
// clocks lets a process whose clock is off by d ms take d·rate/1000 extra deliveries; with one clock
// the bound holds whatever the workers' clocks say. The cost is that tests cannot fake time, so they
// run on short real periods.
import type { RedisClient } from "../store/redis-client.ts";
import { LuaScript } from "../store/lua-script.ts";

const takeSlot = new LuaScript("take-rate-slot-1.lua", 1);

/** The answer to {@link RateGate.take}. */
export type RateTake = { readonly ok: true } | { readonly ok: false; readonly retryInMs: number };

/** Options of a {@link RateGate}. */
export interface RateGateOptions {
  /**
   * Deliveries that may go early, above the steady rate (default 2): no window of one second, sliding,
   * sees more than `ratePerS + burst` deliveries of one target.
   */
  readonly burst?: number;
}

const TAKEN: RateTake = { ok: true };

/** A shared rate limit per target (e.g. per sink), spacing deliveries evenly across all processes. */
export class RateGate {
  private readonly burst: number;

  /**
   * @param redis command connection
   * @param keyOf the Redis key of one target's state (a string); the caller places it (hash tag
   *   included, for Redis Cluster)
   */
  constructor(
    private readonly redis: RedisClient,
    private readonly keyOf: (target: string) => string,
    options: RateGateOptions = {},
  ) {
    this.burst = options.burst ?? 2;
    if (!Number.isInteger(this.burst) || this.burst < 0)
      throw new RangeError(`burst must be a non-negative integer, got ${this.burst}`);
  }

  /**
   * Take one delivery slot of `target` at `ratePerS` (> 0, may be fractional). Refused: `retryInMs` is
   * how long until a take would succeed if nobody else takes first; a refused take reserves nothing, so
   * the caller must ask again.
   */
  async take(target: string, ratePerS: number): Promise<RateTake> {
    if (!Number.isFinite(ratePerS) || ratePerS <= 0)
      throw new RangeError(`ratePerS must be a positive number, got ${ratePerS}`);
    const interval = 1000 / ratePerS;
    const reply = await takeSlot.run(this.redis, [this.keyOf(target)], [interval, interval * this.burst]);
    if (!Array.isArray(reply)) throw new Error("take-rate-slot: unexpected reply");
    if (reply[0] === 1) return TAKEN;
    const retryInMs = reply[1];
    if (typeof retryInMs !== "number") throw new Error("take-rate-slot: unexpected reply");
    return { ok: false, retryInMs };
  }
}

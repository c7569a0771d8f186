// The terms of a shared circuit breaker (shared-breaker.ts), apart from its machinery: what it is built
// with, what an attempt's result counts as, what a record answers, and how long an unused breaker's key
// is kept. Kept apart so the breaker's module is its machinery alone (cache, gate, record, pub/sub);
// callers import both through shared-breaker.ts.
import type { BreakerConfig } from "../config/schema.ts";
import { type DeliveryResult, countsForBreaker } from "../domain/error-class.ts";
import type { OpsOutbox } from "../store/ops-outbox.ts";
import type { RedisClient } from "../store/redis-client.ts";
import type { BreakerStateName } from "./breaker-cache.ts";

/** An attempt's result as the breaker counts it; `ignored` is for permanent failures (the hook's fault). */
export type BreakerResult = "success" | "failure" | "ignored";

/** What {@link SharedBreaker.record} did. */
export interface BreakerRecord {
  readonly state: BreakerStateName;
  /** The breaker opened or closed because of this result (emit metrics and logs on it). */
  readonly changed: boolean;
  /** End of the open period (process clock) when open or half-open, else null. */
  readonly openUntil: number | null;
}

/** Options of a {@link SharedBreaker}. */
export interface SharedBreakerOptions {
  /** Command connection. */
  readonly redis: RedisClient;
  /** A connection for SUBSCRIBE only (it enters subscriber mode); not closed by {@link SharedBreaker.close}. */
  readonly subscriber: RedisClient;
  /** The Redis key of one target's breaker (a hash); the caller places it (hash tag included). */
  readonly keyOf: (target: string) => string;
  /** Pub/sub channel for changes, one per deployment (in Redis Cluster, PUBLISH reaches every node). */
  readonly channel: string;
  /** failures, open_ms, max_open_ms: one config for all targets, or per target (e.g. sink overrides). */
  readonly config: BreakerConfig | ((target: string) => BreakerConfig);
  /** How long a probe may run before another caller gets the probe (more than an attempt's timeout). */
  readonly probeLeaseMs: number;
  /** Longest a cached state is trusted without hearing from Redis (default 1000 ms). */
  readonly refreshMs?: number;
  readonly clock?: () => number;
  readonly random?: () => number;
  /**
   * Called when this process learns that a target's breaker is in another state (from any process's
   * change, or its own): open, closed, or half-open once its probe is handed out.
   */
  readonly onState?: (target: string, state: BreakerStateName) => void;
  /**
   * Called in the one process whose call moved the breaker (its result opened or closed it, or it was
   * handed the probe: half-open), so each transition is counted once cluster-wide.
   */
  readonly onTransition?: (target: string, state: BreakerStateName) => void;
  /**
   * Record each open and close as an operational fact (switchyard.breaker.*) in the breaker's outbox, in
   * the script that makes the change; `kind` says what the targets are.
   */
  readonly facts?: { readonly outbox: OpsOutbox; readonly kind: "sink" | "endpoint" };
}

/** Map a delivery result onto what the breaker counts: permanent failures are `ignored`. */
export function breakerResultOf(result: DeliveryResult): BreakerResult {
  if (result.ok) return "success";
  return countsForBreaker(result.failure) ? "failure" : "ignored";
}

/**
 * How long a breaker's key outlives its open period and probe lease once nothing uses it: twice its
 * longest open period. Long enough that a breaker in use never lapses (each attempt's write pushes it
 * back), short enough that a target gone for good (a deleted endpoint, a sink no longer configured,
 * perhaps still in an older process's config during a rolling deploy) leaves nothing behind.
 */
export function breakerKeepMs(config: BreakerConfig): number {
  return 2 * Math.max(config.open_ms, config.max_open_ms);
}

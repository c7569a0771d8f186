// At most N attempts at once per target, counted across every worker process: each process has its own
// concurrency, so N processes would otherwise run N times the limit against one destination. Slots are
// leases in a Redis sorted set (holder → expiry), so a process that dies mid-attempt gives its slot back
// when the lease runs out rather than holding it forever. A refused holder waits its turn behind the
// others waiting, longer the longer the attempts in flight have been running, so a target that hangs
// with a large backlog does not have every waiting job wake up a few times a second to find it full.
//
// Time: the scripts read Redis's clock, not the caller's `now`. Leases are compared across processes; on
// callers' clocks a process running ahead would expire other processes' live leases and exceed the limit.
import type { RedisClient } from "../store/redis-client.ts";
import { LuaScript } from "../store/lua-script.ts";

const acquireSlot = new LuaScript("acquire-inflight-slot-2.lua", 2);
const renewSlot = new LuaScript("renew-inflight-slot-1.lua", 1);

/** The answer to {@link InflightGate.acquire}. */
export type InflightAcquire = { readonly ok: true } | { readonly ok: false; readonly retryInMs: number };

/** Options of an {@link InflightGate}. */
export interface InflightGateOptions {
  /**
   * How soon a refused holder asks again while the attempts in flight are young (default 250 ms), or
   * sooner if the earliest lease runs out sooner. The certain wait is until the earliest lease runs out,
   * which for a lease sized to an attempt timeout is far longer than slots usually take to free.
   */
  readonly retryInMs?: number;
  /**
   * The longest wait a refusal suggests (default 30 s), however many wait and however long the
   * attempts in flight have run.
   */
  readonly maxWaitMs?: number;
  /** How late a waiter may come back and keep its place among the waiters (default 5 s). */
  readonly waitGraceMs?: number;
}

const ACQUIRED: InflightAcquire = { ok: true };

/** A slot request as script keys and arguments (see InflightGate.acquireCall). */
export interface SlotCall {
  readonly keys: readonly string[];
  readonly args: readonly (string | number)[];
}

/** Read acquire-inflight-slot-2.lua's reply: `[1]`, or `[0, retry_in_ms]`. */
export function parseAcquire(reply: unknown): InflightAcquire {
  if (!Array.isArray(reply)) throw new Error("acquire-inflight-slot: unexpected reply");
  if (reply[0] === 1) return ACQUIRED;
  const retryInMs: unknown = reply[1];
  if (reply[0] !== 0 || typeof retryInMs !== "number")
    throw new Error("acquire-inflight-slot: unexpected reply");
  return { ok: false, retryInMs };
}

function positiveInt(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 1) throw new RangeError(`${name} must be >= 1, got ${value}`);
  return Math.ceil(value);
}

/** A cluster-wide cap on concurrent attempts per target (e.g. per sink). */
export class InflightGate {
  private readonly retryInMs: number;
  private readonly maxWaitMs: number;
  private readonly waitGraceMs: number;

  /**
   * @param redis command connection
   * @param keyOf the Redis key of one target's holders (a sorted set); the caller places it (hash tag
   *   included, for Redis Cluster). Its waiters are kept beside it, at that key + ":waiting".
   */
  constructor(
    private readonly redis: RedisClient,
    private readonly keyOf: (target: string) => string,
    options: InflightGateOptions = {},
  ) {
    this.retryInMs = positiveInt("retryInMs", options.retryInMs ?? 250);
    this.maxWaitMs = Math.max(this.retryInMs, positiveInt("maxWaitMs", options.maxWaitMs ?? 30_000));
    this.waitGraceMs = positiveInt("waitGraceMs", options.waitGraceMs ?? 5000);
  }

  /**
   * Take a slot of `target` for `holderId` (unique per attempt, e.g. job id and attempt number) if fewer
   * than `max` are held; the slot is freed by {@link release}, or by itself `leaseMs` after this call.
   * Acquiring again while holding a live slot keeps that one slot and renews its lease. Refused, the
   * holder is told when to ask again (see acquire-inflight-slot-2.lua): the longer the attempts in flight
   * have run and the more holders wait before it, the later. Pass the same `leaseMs` for one target.
   */
  async acquire(target: string, holderId: string, max: number, leaseMs: number): Promise<InflightAcquire> {
    return this.acquireBy(this.acquireCall(target, holderId, max, leaseMs));
  }

  /** {@link acquire} with its call already made up (by {@link acquireCall}). */
  async acquireBy(call: SlotCall): Promise<InflightAcquire> {
    return parseAcquire(await acquireSlot.run(this.redis, call.keys, call.args));
  }

  /**
   * The keys and arguments of {@link acquire}'s script call, for a script that takes a slot as one step
   * of a larger decision (gate-breaker-and-slot-3.lua); its reply is read with {@link parseAcquire}.
   */
  acquireCall(target: string, holderId: string, max: number, leaseMs: number): SlotCall {
    const key = this.keyOf(target);
    return {
      keys: [key, `${key}:waiting`],
      args: [
        holderId,
        positiveInt("max", max),
        positiveInt("leaseMs", leaseMs),
        this.retryInMs,
        this.maxWaitMs,
        this.waitGraceMs,
      ],
    };
  }

  /** Give the slot back. Resolves false if `holderId` held none (already released, or expired and dropped). */
  async release(target: string, holderId: string): Promise<boolean> {
    return (await this.redis.zrem(this.keyOf(target), holderId)) === 1;
  }

  /**
   * Set the holder's lease to `leaseMs` from now, for an attempt outlasting its lease. Resolves false if
   * the holder no longer has a live slot: it has lost it, and another attempt may be running in its place.
   */
  async renew(target: string, holderId: string, leaseMs: number): Promise<boolean> {
    const reply = await renewSlot.run(
      this.redis,
      [this.keyOf(target)],
      [holderId, positiveInt("leaseMs", leaseMs)],
    );
    return reply === 1;
  }
}

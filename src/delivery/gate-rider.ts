// An outbound attempt asks two things of its endpoint before it runs: may it, by the endpoint's shared
// circuit breaker, and which of the endpoint's concurrency slots is its own. Both live under the
// endpoint's hash tag, so when the breaker's answer has to come from Redis (this process's cache of it
// is stale, which it is for any endpoint that gets a delivery less often than the cache's refresh: most
// endpoints of a fanout), one script decides both and the attempt waits on one call, not two. When the
// cache answers, the slot is asked for alone.
import { LuaScript } from "../store/lua-script.ts";
import type { BreakerGate } from "./breaker-cache.ts";
import { type InflightAcquire, type InflightGate, parseAcquire } from "./inflight-gate.ts";

/** gate-breaker-1.lua's reply: pass, probe, then the breaker snapshot's six fields. */
export const GATE_REPLY_LENGTH = 8;

/**
 * A script call that rides in the breaker gate's when the gate has to ask Redis (its keys in the
 * breaker's hash tag): `script` runs gate-breaker-1.lua's decision on the gate's key and first four
 * arguments, then, only if it passes, this call on `keys` and `args`, and replies with the gate's reply
 * followed by this call's.
 */
export interface GateRider<T> {
  readonly script: LuaScript;
  readonly keys: readonly string[];
  readonly args: readonly (string | number)[];
  /** Read this call's part of the reply (after the gate's). */
  parse(tail: unknown[]): T;
  /** Make this call on its own: when the gate is answered from memory and passes. */
  alone(): Promise<T>;
}

/** What SharedBreaker.gateWith decided, and its rider's answer when the rider's call was made. */
export interface Gated<T> {
  readonly gate: BreakerGate;
  readonly ride: T | undefined;
}

const gateAndSlot = new LuaScript("gate-breaker-and-slot-3.lua", 3);

/** A concurrency slot of `target` for `holder`, asked for along with the target's breaker gate. */
export function slotRider(
  inflight: InflightGate,
  target: string,
  holder: string,
  max: number,
  leaseMs: number,
): GateRider<InflightAcquire> {
  const call = inflight.acquireCall(target, holder, max, leaseMs);
  return {
    script: gateAndSlot,
    keys: call.keys,
    args: call.args,
    parse: parseAcquire,
    alone: () => inflight.acquireBy(call),
  };
}

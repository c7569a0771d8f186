// Reading a shared breaker's state from Redis without holding a SharedBreaker: the admin API and the
// portal show breakers they never gate on, and the SharedBreaker itself refreshes its cache the same way.
// Scripts answer with times left (Redis's clock); a view turns them into times on the process clock.
import type { RedisClient } from "../store/redis-client.ts";
import { LuaScript } from "../store/lua-script.ts";
import {
  type BreakerSnapshot,
  type BreakerStateName,
  parseSnapshot,
  snapshotState,
} from "./breaker-cache.ts";

const readScript = new LuaScript("read-breaker-1.lua", 1);

/** A breaker's state as Redis has it, times on the process clock. */
export interface BreakerView {
  readonly state: BreakerStateName;
  readonly openUntil: number | null;
  /** Deadline of the probe out, if one is. */
  readonly probeUntil: number | null;
}

export async function readSnapshot(
  redis: RedisClient,
  key: string,
  clock: () => number,
): Promise<{ snap: BreakerSnapshot; at: number }> {
  const reply = replyArray(await readScript.run(redis, [key], []), "read-breaker");
  return { snap: parseSnapshot(reply), at: clock() };
}

export function viewOf(snap: BreakerSnapshot, at: number): BreakerView {
  return {
    state: snapshotState(snap),
    openUntil: snap.open ? at + snap.openLeftMs : null,
    probeUntil: snap.probeLeftMs > 0 ? at + snap.probeLeftMs : null,
  };
}

/** A shared breaker's state read from its key, without a SharedBreaker (readers that never gate). */
export async function readSharedBreaker(
  redis: RedisClient,
  key: string,
  clock: () => number = Date.now,
): Promise<BreakerView> {
  const { snap, at } = await readSnapshot(redis, key, clock);
  return viewOf(snap, at);
}

export function replyArray(reply: unknown, script: string): unknown[] {
  if (!Array.isArray(reply)) throw new Error(`${script}: unexpected reply`);
  return reply as unknown[];
}

// What one process knows of the shared circuit breakers, so that the hot path (a closed breaker, or an
// open one whose period has not ended) is answered from memory instead of a Redis round trip. Kept apart
// from the Redis side so its rules (ordering of what it hears, when to ask again, jitter) are plain
// functions a unit test can drive.

export type BreakerStateName = "closed" | "half_open" | "open";

/** A breaker's answer to "may an attempt run now?": pass (maybe as the one probe), or park until a time. */
export type BreakerGate =
  { readonly pass: true; readonly probe: boolean } | { readonly pass: false; readonly parkUntil: number };

/** A breaker as a script reply or a change message states it, times relative to that moment. */
export interface BreakerSnapshot {
  /** Bumped on every published change: orders what arrives by reply and by message. */
  readonly ver: number;
  /** Open or half-open (open with no time left). */
  readonly open: boolean;
  readonly openLeftMs: number;
  /** Time left on the probe's lease; 0 when no probe is out. */
  readonly probeLeftMs: number;
  /** Closed with at least one failure counted. */
  readonly failing: boolean;
  /** The current open period (for jitter); 0 when closed. */
  readonly periodMs: number;
}

/** A snapshot placed on this process's clock. */
export interface CachedBreaker {
  readonly ver: number;
  readonly open: boolean;
  readonly openUntil: number;
  /** 0 when no probe is out. */
  readonly probeUntil: number;
  readonly failing: boolean;
  readonly periodMs: number;
  /** When Redis last confirmed this (a reply or a message). */
  readonly confirmedAt: number;
}

/** What the cache can answer for a gate: pass, park until a time, or "ask Redis". */
export type CachedGate =
  | { readonly kind: "pass" }
  | { readonly kind: "park"; readonly until: number; readonly periodMs: number }
  | { readonly kind: "ask" };

const num = (v: unknown): number => {
  if (typeof v !== "number" || !Number.isFinite(v)) throw new Error("breaker snapshot: bad number");
  return v;
};

/** Parse `[ver, state, open_left_ms, probe_left_ms, failing, period_ms]` (script reply tail or message). */
export function parseSnapshot(values: readonly unknown[]): BreakerSnapshot {
  const [ver, state, openLeft, probeLeft, failing, period] = values;
  if (state !== "open" && state !== "closed") throw new Error("breaker snapshot: bad state");
  return {
    ver: num(ver),
    open: state === "open",
    openLeftMs: num(openLeft),
    probeLeftMs: num(probeLeft),
    failing: num(failing) === 1,
    periodMs: num(period),
  };
}

/** The state a snapshot states, at the moment it was taken. */
export function snapshotState(snap: BreakerSnapshot): BreakerStateName {
  if (!snap.open) return "closed";
  return snap.openLeftMs > 0 ? "open" : "half_open";
}

/** The state a cached breaker is in at `now`. */
export function stateAt(entry: CachedBreaker, now: number): BreakerStateName {
  if (!entry.open) return "closed";
  return now < entry.openUntil ? "open" : "half_open";
}

/**
 * Random extra park time, 0..min(1000, 10% of the open period) ms, so jobs parked on one breaker do not
 * all wake in the same instant. `random` returns [0, 1).
 */
export function parkJitterMs(periodMs: number, random: () => number): number {
  const cap = Math.floor(Math.min(1000, periodMs / 10));
  return Math.min(cap, Math.floor(random() * (cap + 1)));
}

/** Per-target cached breakers, trusted for `refreshMs` after Redis last confirmed them. */
export class BreakerCache {
  private readonly entries = new Map<string, CachedBreaker>();

  constructor(private readonly refreshMs: number) {}

  /** The entry for `target` if Redis confirmed it within `refreshMs` of `now`. */
  fresh(target: string, now: number): CachedBreaker | undefined {
    const entry = this.entries.get(target);
    return entry && now - entry.confirmedAt < this.refreshMs ? entry : undefined;
  }

  /**
   * Take in a snapshot heard at `at` (this process's clock). A reply and a message travel on different
   * connections, so an older one can arrive after a newer one: it is dropped unless what the cache holds
   * has gone unconfirmed for `refreshMs` (then Redis itself went back, e.g. the key was deleted or a
   * failover lost writes, and the older-looking snapshot is the truth). Returns whether it was taken.
   */
  apply(target: string, snap: BreakerSnapshot, at: number): boolean {
    const held = this.entries.get(target);
    if (held && snap.ver < held.ver && at - held.confirmedAt < this.refreshMs) return false;
    this.entries.set(target, {
      ver: snap.ver,
      open: snap.open,
      openUntil: snap.open ? at + snap.openLeftMs : 0,
      probeUntil: snap.probeLeftMs > 0 ? at + snap.probeLeftMs : 0,
      failing: snap.failing,
      periodMs: snap.periodMs,
      confirmedAt: at,
    });
    return true;
  }

  /** Whatever this process last heard of `target`, however old. */
  peek(target: string): CachedBreaker | undefined {
    return this.entries.get(target);
  }

  /** Answer a gate from memory when that is safe; "ask" when only Redis can (stale, or a probe is due). */
  gate(target: string, now: number): CachedGate {
    const entry = this.fresh(target, now);
    if (!entry) return { kind: "ask" };
    if (!entry.open) return { kind: "pass" };
    if (now < entry.openUntil) return { kind: "park", until: entry.openUntil, periodMs: entry.periodMs };
    if (now < entry.probeUntil) return { kind: "park", until: entry.probeUntil, periodMs: entry.periodMs };
    return { kind: "ask" };
  }

  clear(): void {
    this.entries.clear();
  }
}

// A circuit breaker per target (a sink, an outbound endpoint) whose state lives in Redis, so a breaker
// opened by one worker process holds for every process, and exactly one probe goes out cluster-wide when
// the open period ends. The rules: open after N consecutive countable failures, open period doubling per
// consecutive open up to a cap, one probe decides.
//
// Cost: every change is published on a pub/sub channel and each process keeps what it hears in a small
// cache (BreakerCache), so a closed breaker answers gate() with no Redis round trip, and so does an open
// one until its period ends. A process hears of an open within one pub/sub message; messages lost while
// the subscriber reconnects are covered by trusting a cached entry for at most `refreshMs` (~1 s). When
// an entry goes stale, one call asks Redis and the calls meanwhile wait for its answer: the attempts a
// busy worker picks up in that moment cost one script call between them, not one each.
//
// Time: the scripts decide on Redis's clock (every process must agree when a period ends and when a
// probe's lease runs out, or two probes could be out at once). Scripts return times left; this module
// turns them into absolute times on the process clock (`clock`, Date.now by default), the clock BullMQ's
// moveToDelayed reads.
import { once } from "node:events";
import type { BreakerConfig } from "../config/schema.ts";
import { LuaScript } from "../store/lua-script.ts";
import {
  type BreakerGate,
  type BreakerSnapshot,
  type BreakerStateName,
  BreakerCache,
  parkJitterMs,
  parseSnapshot,
  snapshotState,
  stateAt,
} from "./breaker-cache.ts";
import { type BreakerView, readSharedBreaker, readSnapshot, replyArray, viewOf } from "./breaker-read.ts";
import {
  type BreakerRecord,
  type BreakerResult,
  type SharedBreakerOptions,
  breakerKeepMs,
  breakerResultOf,
} from "./breaker-terms.ts";
import { GATE_REPLY_LENGTH, type GateRider, type Gated } from "./gate-rider.ts";

const gateScript = new LuaScript("gate-breaker-1.lua", 1);
// On a single Redis it also marks its outbox in the drainer's dirty set (another slot; see OpsOutbox).
const recordScript = new LuaScript("record-breaker-result-n.lua", "n", { oneSlotOnClusterOnly: true });

export type { BreakerGate, BreakerStateName, BreakerView };
export type { BreakerRecord, BreakerResult, SharedBreakerOptions };
export { breakerKeepMs, breakerResultOf, readSharedBreaker };

const PASS: BreakerGate = { pass: true, probe: false };

/** Circuit breakers for many targets, shared by every process using the same keys and channel. */
export class SharedBreaker {
  private readonly cache: BreakerCache;
  private readonly clock: () => number;
  private readonly random: () => number;
  private readonly configOf: (target: string) => BreakerConfig;
  private readonly lastState = new Map<string, BreakerStateName>();
  /** The script call asking Redis about a target right now, if any (see asked). */
  private readonly inFlight = new Map<string, Promise<unknown>>();

  constructor(private readonly options: SharedBreakerOptions) {
    const { config } = options;
    this.configOf = typeof config === "function" ? config : () => config;
    this.cache = new BreakerCache(options.refreshMs ?? 1000);
    this.clock = options.clock ?? Date.now;
    this.random = options.random ?? Math.random;
    if (!(options.probeLeaseMs >= 1)) throw new RangeError(`probeLeaseMs must be >= 1`);
  }

  /** Subscribe to changes. Until this resolves the breaker works, asking Redis more often. */
  async start(): Promise<void> {
    const { subscriber } = this.options;
    // A SUBSCRIBE sent during ioredis's connection handshake can collide with its ready check (INFO),
    // which fails the connection and drops messages while it reconnects (ioredis#2037): wait for ready.
    if (subscriber.status === "end") throw new Error("shared breaker: the subscriber connection has ended");
    if (subscriber.status === "wait") await subscriber.connect();
    else if (subscriber.status !== "ready") await once(subscriber, "ready");
    subscriber.on("message", this.onMessage);
    await subscriber.subscribe(this.options.channel);
  }

  /** Unsubscribe (the subscriber connection stays open: the caller owns it). */
  async close(): Promise<void> {
    this.options.subscriber.off("message", this.onMessage);
    await this.options.subscriber.unsubscribe(this.options.channel);
    this.cache.clear();
  }

  /**
   * May an attempt on `target` run now? `probe: true` means this attempt is the one probe; record its
   * result with `probe` set. Parked: `parkUntil` is the end of the open period, or the probe's deadline
   * while a probe is out, plus a jitter of 0..min(1000, 10% of the period) ms (process clock).
   */
  async gate(target: string): Promise<BreakerGate> {
    // The hot path (every inbound attempt on a healthy sink) answered without gateWith's wrapper.
    if (this.cache.gate(target, this.clock()).kind === "pass") return PASS;
    return (await this.gateWith(target)).gate;
  }

  /**
   * {@link gate}, and when it passes, `rider`'s call (not made when it parks): inside the gate's own
   * script call when the gate has to ask Redis, so both cost one round trip; alone when this process's
   * cache answers the gate.
   */
  async gateWith<T>(target: string, rider?: GateRider<T>): Promise<Gated<T>> {
    let cached = this.cache.gate(target, this.clock());
    const asked = cached.kind === "ask" ? this.asked(target) : undefined;
    if (asked) {
      await asked;
      cached = this.cache.gate(target, this.clock());
    }
    if (cached.kind === "pass") return { gate: PASS, ride: await rider?.alone() };
    if (cached.kind === "park") return { gate: this.park(cached.until, cached.periodMs), ride: undefined };

    const { redis, keyOf, probeLeaseMs, channel } = this.options;
    const gateArgs = [target, Math.ceil(probeLeaseMs), channel, breakerKeepMs(this.configOf(target))];
    const reply = replyArray(
      await this.asking(
        target,
        rider
          ? rider.script.run(redis, [keyOf(target), ...rider.keys], [...gateArgs, ...rider.args])
          : gateScript.run(redis, [keyOf(target)], gateArgs),
      ),
      "gate-breaker",
    );
    const at = this.clock();
    const snap = parseSnapshot(reply.slice(2, GATE_REPLY_LENGTH));
    this.learn(target, snap, at);
    const ride = rider && reply[0] === 1 ? rider.parse(reply.slice(GATE_REPLY_LENGTH)) : undefined;
    if (reply[0] === 1 && reply[1] === 1) {
      this.options.onTransition?.(target, "half_open");
      return { gate: { pass: true, probe: true }, ride };
    }
    if (reply[0] === 1) return { gate: PASS, ride };
    const until = at + (snap.openLeftMs > 0 ? snap.openLeftMs : snap.probeLeftMs);
    return { gate: this.park(until, snap.periodMs), ride: undefined };
  }

  /**
   * Count an attempt's result (`probe`: the attempt was the probe gate() handed out). Resolves the state
   * after it and whether it opened or closed the breaker. Costs no round trip when the cache (fresh) shows
   * there is nothing to write: a non-probe `ignored`, or a non-probe success on a closed breaker with no
   * failures counted (or on an open one, where only the probe decides). `tenant`: the target's, for the
   * facts of an open or a close.
   */
  async record(
    target: string,
    result: BreakerResult,
    probe: boolean,
    tenant?: string,
  ): Promise<BreakerRecord> {
    let now = this.clock();
    let cached = probe ? undefined : this.cache.fresh(target, now);
    const asked = probe || cached || result === "failure" ? undefined : this.asked(target);
    if (asked) {
      await asked;
      now = this.clock();
      cached = this.cache.fresh(target, now);
    }
    if (cached && (result === "ignored" || (result === "success" && (cached.open || !cached.failing)))) {
      return {
        state: stateAt(cached, now),
        changed: false,
        openUntil: cached.open ? cached.openUntil : null,
      };
    }

    const { redis, keyOf, channel } = this.options;
    const config = this.configOf(target);
    const key = keyOf(target);
    const facts = this.options.facts?.outbox.enabled ? this.options.facts : undefined;
    const outbox = facts?.outbox.outboxOf(key);
    const reply = replyArray(
      await this.asking(
        target,
        recordScript.run(
          redis,
          outbox === undefined ? [key] : [key, outbox, ...(facts?.outbox.dirtyKeys ?? [])],
          [
            target,
            result,
            probe ? 1 : 0,
            config.failures,
            config.open_ms,
            Math.max(config.open_ms, config.max_open_ms),
            channel,
            breakerKeepMs(config),
            ...(facts ? [facts.kind, tenant ?? ""] : []),
          ],
        ),
      ),
      "record-breaker-result",
    );
    const at = this.clock();
    const snap = parseSnapshot(reply.slice(1));
    this.learn(target, snap, at);
    // The script says whether it recorded the change as a fact (an open from closed, a close).
    if (reply[7] === 1 && outbox !== undefined) await facts?.outbox.wrote(outbox);
    if (reply[0] === 1) this.options.onTransition?.(target, snapshotState(snap));
    return {
      state: snapshotState(snap),
      changed: reply[0] === 1,
      openUntil: snap.open ? at + snap.openLeftMs : null,
    };
  }

  /** Until when `target` takes nothing, as this process knows it fresh (no round trip); undefined: ask. */
  heldUntil(target: string): number | undefined {
    const cached = this.cache.gate(target, this.clock());
    return cached.kind === "park" ? cached.until : undefined;
  }

  /** The breaker's state as Redis has it now (one round trip; also refreshes this process's cache). */
  async state(target: string): Promise<BreakerView> {
    const { snap, at } = await readSnapshot(this.options.redis, this.options.keyOf(target), this.clock);
    this.learn(target, snap, at);
    return viewOf(snap, at);
  }

  /**
   * If a call is asking Redis about `target` now, the wait for its answer (taken into the cache); its
   * failure is the caller's to meet again with its own call. Undefined, at once, when none is: the
   * caller asks itself, registered (asking) before anything else can look.
   */
  private asked(target: string): Promise<void> | undefined {
    const noop = (): void => undefined;
    return this.inFlight.get(target)?.then(noop, noop);
  }

  /** `call`, a script call about `target`, registered for {@link asked} until it settles. */
  private asking<T>(target: string, call: Promise<T>): Promise<T> {
    if (this.inFlight.has(target)) return call;
    this.inFlight.set(target, call);
    const done = (): void => void this.inFlight.delete(target);
    call.then(done, done);
    return call;
  }

  /** Take in a snapshot, and say so when it shows another state than the last one this process saw. */
  private learn(target: string, snap: BreakerSnapshot, at: number): void {
    const onState = this.options.onState;
    if (!this.cache.apply(target, snap, at) || !onState) return;
    const state = snapshotState(snap);
    if (this.lastState.get(target) === state) return;
    this.lastState.set(target, state);
    onState(target, state);
  }

  private park(until: number, periodMs: number): BreakerGate {
    return { pass: false, parkUntil: until + parkJitterMs(periodMs, this.random) };
  }

  /** A change published by any process (this one included): `[target, ...snapshot]`. */
  private readonly onMessage = (channel: string, message: string): void => {
    if (channel !== this.options.channel) return;
    let values: unknown;
    try {
      values = JSON.parse(message);
    } catch {
      return; // not ours; the cache's refresh covers anything missed
    }
    if (!Array.isArray(values) || typeof values[0] !== "string") return;
    try {
      this.learn(values[0], parseSnapshot(values.slice(1) as unknown[]), this.clock());
    } catch {
      return;
    }
  };
}

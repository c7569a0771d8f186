// The outboxes of operational facts (src/domain/operational-events.ts), the store half. A script that
// decides a fact writes it into the outbox of its own hash tag (lua/ops/append-fact.lua), atomically with
// the fact; this module is what the processes around those scripts need: which outbox a key's tag has,
// what a script is given to mark its outbox dirty (the set on a single Redis; nothing on a cluster, where
// the set is another slot and the caller marks it right after: `wrote`), and the drainer's reads,
// decisions and removals.
import type { Keys } from "./keys.ts";
import { hashTagOf } from "./key-slot.ts";
import { LuaScript } from "./lua-script.ts";
import { type RedisClient, isCluster, pipelineByNode } from "./redis-client.ts";

const decideScript = new LuaScript("ops/decide-facts-n.lua", "n");

/** How long a `send` decision is kept at most (a day: longer than any entry waits, outages aside). */
export const DECISION_TTL_S = 86_400;
/** How long a minute's budget counter is kept: past its minute, and past a drain that was cut short. */
export const BUDGET_TTL_S = 120;

export interface OpsOutboxOptions {
  /** operational.enabled: whether scripts record facts at all; a writer checks it. */
  readonly enabled?: boolean;
  /** A decision is kept DECISION_TTL_S, or this long when shorter (retention_s: no key outlives it). */
  readonly retentionS?: number;
}

/** Entries read from one outbox per round trip. */
const PAGE = 200;

/** One fact of an outbox, as stored: its event id and its entry's JSON. */
export interface StoredFact {
  readonly id: string;
  readonly json: string;
}

/** A budgeted fact to decide: its event id, its target, and the minute it counts against. */
export interface BudgetedFact {
  readonly id: string;
  readonly budget: string;
  readonly minute: number;
}

export class OpsOutbox {
  private readonly cluster: boolean;
  private readonly listeners = new Set<(outbox: string) => void>();

  readonly enabled: boolean;
  private readonly decisionTtlS: number;

  constructor(
    private readonly redis: RedisClient,
    readonly keys: Keys,
    opts: OpsOutboxOptions = {},
  ) {
    this.cluster = isCluster(redis);
    this.enabled = opts.enabled ?? true;
    this.decisionTtlS = Math.min(DECISION_TTL_S, opts.retentionS ?? DECISION_TTL_S);
  }

  /** The outbox of the hash tag `key` has (a script writes its facts into the outbox of its own tag). */
  outboxOf(key: string): string {
    return this.keys.opsOutbox(`{${hashTagOf(key)}}`);
  }

  /**
   * The keys a fact-writing script adds to its KEYS for the dirty mark: the dirty set on a single Redis
   * (a cross-slot write is fine there), none on a cluster. The script's `dirty` argument is the first of
   * them or ''. Such a script is loaded with `oneSlotOnClusterOnly`.
   */
  get dirtyKeys(): readonly string[] {
    return this.cluster ? [] : [this.keys.opsDirty];
  }

  /** Whether the calling process marks an outbox itself after its script wrote a fact (a cluster). */
  get marksAfterScript(): boolean {
    return this.cluster;
  }

  /**
   * A script reported that it wrote a fact into `outbox`: on a cluster mark the outbox dirty (the script
   * could not), then tell the listeners (the drainer, which publishes it after `operational.flush_ms`).
   * Never throws: an outbox left unmarked by a failure here is found by the drainer's periodic sweep.
   */
  async wrote(outbox: string): Promise<void> {
    if (this.cluster) await this.markDirty(outbox).catch(() => undefined);
    for (const listener of this.listeners) listener(outbox);
  }

  /** Call `listener` whenever this process wrote a fact (see `wrote`). */
  onWrite(listener: (outbox: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async markDirty(outbox: string): Promise<void> {
    await this.redis.sadd(this.keys.opsDirty, outbox);
  }

  /** The outboxes marked as possibly holding entries. */
  async dirty(): Promise<string[]> {
    return this.redis.smembers(this.keys.opsDirty);
  }

  /** How many entries each outbox holds (one round trip per cluster node). */
  async sizes(outboxes: readonly string[]): Promise<number[]> {
    return (await pipelineByNode(this.redis, outboxes, (pipe, key) => pipe.hlen(key))) as number[];
  }

  /** A page of `outbox`'s entries from `cursor` ('0' to start); the next cursor is '0' after the last. */
  async page(outbox: string, cursor: string): Promise<{ cursor: string; facts: StoredFact[] }> {
    const [next, flat] = await this.redis.hscan(outbox, cursor, "COUNT", PAGE);
    const facts: StoredFact[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2)
      facts.push({ id: flat[i] as string, json: flat[i + 1] as string });
    return { cursor: next, facts };
  }

  /** Remove published (or suppressed) entries. */
  async remove(outbox: string, ids: readonly string[]): Promise<void> {
    if (ids.length > 0) await this.redis.hdel(outbox, ...ids);
  }

  /**
   * Unmark `outbox` if it is empty. The mark is taken first and put back when entries remain, so a fact
   * written meanwhile (whose writer marks the outbox after the entry exists) is never left unmarked.
   * True when it was empty.
   */
  async settle(outbox: string): Promise<boolean> {
    await this.redis.srem(this.keys.opsDirty, outbox);
    if ((await this.redis.hlen(outbox)) === 0) return true;
    await this.markDirty(outbox);
    return false;
  }

  /**
   * Decide each budgeted fact once: `send` while its target has sent fewer than `limit` facts in the
   * fact's minute, else `skip` (see ops/decide-facts-n.lua). Concurrent drainers get the same answers.
   */
  async decide(facts: readonly BudgetedFact[], limit: number): Promise<("send" | "skip")[]> {
    if (facts.length === 0) return [];
    const keys = facts.flatMap((f) => [this.keys.opsDecision(f.id), this.keys.opsBudget(f.budget, f.minute)]);
    return (await decideScript.run(this.redis, keys, [limit, this.decisionTtlS, BUDGET_TTL_S])) as (
      "send" | "skip"
    )[];
  }
}

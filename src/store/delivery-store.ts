// The delivery ledger: one durable row per delivery, and every change to it through a fenced Lua
// script. Workers claim a row (lease + fencing token) before an attempt and record its outcome with
// the token they were given; a writer that lost its lease is refused. Rows live without expiry while
// live; a final outcome starts their retention (and their parent's, once none of its rows is live).
import type { DeliveryRow, DeliveryState } from "../domain/delivery.ts";
import { parseTarget } from "../domain/delivery.ts";
import { ATTEMPT_HISTORY, type Attempt } from "../domain/attempt.ts";
import { type DeliveryId, type HookId, type ReplayId, bucketOf } from "../domain/ids.ts";
import { dlqIndexKeys } from "./dlq-index.ts";
import type { Keys } from "./keys.ts";
import { parseRow } from "./delivery-row.ts";
import { HISTORY_FIELD, decodeAttempts, encodeAttempt } from "./attempt-history.ts";
import { inGroups } from "./group-indexes.ts";
import { LuaScript } from "./lua-script.ts";
import type { OpsOutbox } from "./ops-outbox.ts";
import { type RedisClient, isCluster, pipelineByNode } from "./redis-client.ts";
import { TickBatch } from "./tick-batch.ts";
import {
  type Finish,
  type LedgerOptions,
  type ReviveResult,
  type StaleClaim,
  type Writer,
  fenceArg,
} from "./ledger-writes.ts";

export type { Finish, LedgerOptions, ReviveResult, StaleClaim, Writer } from "./ledger-writes.ts";
export { ledgerOptions } from "./ledger-writes.ts";
import { type ClaimResult, parseClaim } from "./claim-reply.ts";

const claimScript = new LuaScript("claim-deliveries-n.lua", "n", { oneSlotOnClusterOnly: true });
const renewScript = new LuaScript("renew-lease-2.lua", 2);
const finishScript = new LuaScript("finish-attempt-n.lua", "n", { oneSlotOnClusterOnly: true });
const reviveScript = new LuaScript("revive-delivery-n.lua", "n");
const unlistScript = new LuaScript("unlist-dead-n.lua", "n");
const claimStaleScript = new LuaScript("claim-stale-2.lua", 2);
const releaseStaleScript = new LuaScript("release-stale-2.lua", 2);

interface ClaimRequest {
  readonly id: DeliveryId;
  readonly parentKey: string;
  readonly owner: string;
  readonly leaseMs: number;
  readonly fields: readonly string[];
  readonly now: number;
}

interface FinishWrite {
  readonly row: Pick<DeliveryRow, "id" | "target" | "source" | "tenant" | "parentId">;
  readonly writer: Writer;
  readonly finish: Finish;
  readonly now: number;
}

/** The most claims one script call takes (it runs atomically: a bound on how long it holds Redis). */
const MAX_CLAIMS_PER_CALL = 128;

export class DeliveryStore {
  private readonly claims: TickBatch<ClaimRequest, ClaimResult>;
  private readonly writes: TickBatch<FinishWrite, boolean>;
  private readonly perSlot: boolean;

  /**
   * `facts`: the outboxes the finish script records operational facts in (with `opts.failingAfter` > 0);
   * told of every outbox a call wrote to, so the drainer publishes soon and a cluster's outbox is marked.
   */
  constructor(
    private readonly redis: RedisClient,
    readonly keys: Keys,
    private readonly opts: LedgerOptions,
    private readonly facts?: OpsOutbox,
  ) {
    this.perSlot = isCluster(redis);
    this.claims = new TickBatch(
      (batch) =>
        this.inSlots(
          batch,
          (c) => c.id,
          (group) => this.claimGroup(group),
        ),
      MAX_CLAIMS_PER_CALL,
    );
    this.writes = new TickBatch((batch) =>
      this.inSlots(
        batch,
        (w) => w.row.id,
        (group) => this.flushGroup(group),
      ),
    );
  }

  /** The record a row delivers: a hook for a sink, an event for an endpoint. */
  parentKey(row: Pick<DeliveryRow, "target" | "parentId">): string {
    return row.target.kind === "sink"
      ? this.keys.hook(row.parentId as HookId)
      : this.keys.event(row.parentId);
  }

  /**
   * Take the row's lease for one attempt and read `fields` of its parent, in one round trip. Claims
   * made within one tick go out together (many workers picking up jobs at once cost one call).
   */
  claim(
    id: DeliveryId,
    parentKey: string,
    owner: string,
    leaseMs: number,
    fields: readonly string[],
    now = Date.now(),
  ): Promise<ClaimResult> {
    return this.claims.add({ id, parentKey, owner, leaseMs, fields, now });
  }

  private async claimGroup(claims: readonly ClaimRequest[]): Promise<ClaimResult[]> {
    const keys: string[] = [];
    const args: (string | number)[] = [claims.length];
    for (const { id, parentKey, owner, leaseMs, fields, now } of claims) {
      keys.push(this.keys.delivery(id), parentKey, this.keys.watch(bucketOf(id)));
      args.push(id, owner, now, leaseMs, fields.length, ...fields);
    }
    const replies = (await claimScript.runBuffer(this.redis, keys, args)) as (Buffer | null)[][];
    return replies.map(parseClaim);
  }

  /** Extend a running attempt's lease; false when the caller no longer holds it. */
  async renew(id: DeliveryId, fence: number, until: number): Promise<boolean> {
    const reply = await renewScript.run(
      this.redis,
      [this.keys.delivery(id), this.keys.watch(bucketOf(id))],
      [id, fence, until],
    );
    return reply === 1;
  }

  /**
   * Record an attempt's outcome; false when the write was refused (the writer's lease was taken over,
   * or the row is no longer live). Writes made within one tick go out together (see flush).
   */
  finish(row: FinishWrite["row"], writer: Writer, finish: Finish, now = Date.now()): Promise<boolean> {
    return this.writes.add({ row, writer, finish, now });
  }

  /** One script call a tick on one Redis; on a cluster one per bucket (one slot a call), at once. */
  private inSlots<T, R>(
    batch: readonly T[],
    idOf: (item: T) => DeliveryId,
    run: (group: readonly T[]) => Promise<R[]>,
  ): Promise<R[]> {
    return inGroups(batch, this.perSlot ? (item) => bucketOf(idOf(item)) : () => 0, run);
  }

  private async flushGroup(writes: readonly FinishWrite[]): Promise<boolean[]> {
    const keys: string[] = [];
    const args: (string | number)[] = [writes.length];
    const history: string[] = [];
    const outboxes: string[] = [];
    for (const { row, writer, finish, now } of writes) {
      history.push(finish.outcome === "release" || !finish.attempt ? "" : encodeAttempt(finish.attempt));
      const bucket = bucketOf(row.id);
      const outbox = this.keys.opsOutbox(this.keys.bucketTag(bucket));
      outboxes.push(outbox);
      const own = [this.keys.delivery(row.id), this.parentKey(row), this.keys.watch(bucket), outbox];
      if (finish.outcome === "dead")
        own.push(...dlqIndexKeys(this.keys, row, finish.errorClass), this.keys.dlqIndexes(bucket));
      keys.push(...own);
      const failure = finish.outcome === "retrying" || finish.outcome === "dead" ? finish : undefined;
      const statusCode = finish.outcome === "release" ? undefined : finish.statusCode;
      const nextAt = finish.outcome === "retrying" ? finish.nextAttemptAt : 0;
      args.push(
        own.length,
        row.id,
        fenceArg(writer),
        finish.outcome,
        now,
        this.opts.retentionS,
        nextAt,
        // A retry is due at its own time; recovery looks only once it is overdue by the stale horizon.
        (finish.outcome === "retrying" ? nextAt : now) + this.opts.staleAfterMs,
        failure?.reason ?? "",
        failure?.errorClass ?? "",
        statusCode ?? "",
        finish.outcome === "dead" && finish.attempted === false ? 1 : 0,
      );
    }
    args.push(ATTEMPT_HISTORY.count, ATTEMPT_HISTORY.bytes, ...history);
    const failingAfter = this.facts?.enabled === true ? (this.opts.failingAfter ?? 0) : 0;
    const dirty = failingAfter > 0 ? (this.facts?.dirtyKeys ?? []) : [];
    keys.push(...dirty);
    args.push(failingAfter, dirty.length > 0 ? "1" : "0");
    const reply = (await finishScript.run(this.redis, keys, args)) as number[];
    const wrote = new Set(outboxes.filter((_, i) => reply[i] === 2));
    if (this.facts) for (const outbox of wrote) await this.facts.wrote(outbox);
    return reply.map((n) => n >= 1);
  }

  async get(id: DeliveryId): Promise<DeliveryRow | undefined> {
    return parseRow(id, await this.redis.hgetall(this.keys.delivery(id)));
  }

  /** A row with its attempt history (oldest first), in one read. */
  async getWithAttempts(id: DeliveryId): Promise<{ row: DeliveryRow; attempts: Attempt[] } | undefined> {
    const raw = await this.redis.hgetall(this.keys.delivery(id));
    const row = parseRow(id, raw);
    return row && { row, attempts: decodeAttempts(raw[HISTORY_FIELD]) };
  }

  /** Rows by id in one round trip (per cluster node); missing ones (expired, never written) are undefined. */
  async getMany(ids: readonly DeliveryId[]): Promise<(DeliveryRow | undefined)[]> {
    const replies = await pipelineByNode(
      this.redis,
      ids.map((id) => this.keys.delivery(id)),
      (pipe, key) => pipe.hgetall(key),
    );
    return replies.map((raw, i) => parseRow(ids[i] as DeliveryId, raw as Record<string, string>));
  }

  /**
   * Move a dead row back to pending for a replay, the one way a dead delivery comes back (see
   * revive-delivery-n.lua).
   */
  async revive(
    row: DeliveryRow,
    replayId: ReplayId,
    snapshot: number,
    now = Date.now(),
  ): Promise<ReviveResult> {
    const bucket = bucketOf(row.id);
    const indexes = row.errorClass ? dlqIndexKeys(this.keys, row, row.errorClass) : [];
    return (await reviveScript.run(
      this.redis,
      [this.keys.delivery(row.id), this.parentKey(row), this.keys.watch(bucket), ...indexes],
      [row.id, replayId, snapshot, now + this.opts.staleAfterMs],
    )) as ReviveResult;
  }

  /** Take a dead row off the DLQ (purge); false if it is not dead. */
  async unlist(row: DeliveryRow): Promise<boolean> {
    if (!row.errorClass) return false;
    const reply = await unlistScript.run(
      this.redis,
      [this.keys.delivery(row.id), ...dlqIndexKeys(this.keys, row, row.errorClass)],
      [row.id],
    );
    return reply === 1;
  }

  /** Live rows of `bucket` that recovery should look at by `now`, oldest first. */
  async due(bucket: number, now: number, limit: number): Promise<DeliveryId[]> {
    return (await this.redis.zrangebyscore(
      this.keys.watch(bucket),
      "-inf",
      now,
      "LIMIT",
      0,
      limit,
    )) as DeliveryId[];
  }

  /** Claim a due row for re-enqueueing (see claim-stale-2.lua). */
  async claimStale(id: DeliveryId, token: string, leaseMs: number, now = Date.now()): Promise<StaleClaim> {
    const reply = (await claimStaleScript.run(
      this.redis,
      [this.keys.delivery(id), this.keys.watch(bucketOf(id))],
      [id, now, token, leaseMs],
    )) as (string | number)[];
    const kind = String(reply[0]);
    if (kind !== "claimed") return { kind: kind as "not_due" | "leased" | "final" | "missing" };
    return {
      kind,
      state: String(reply[1]) as DeliveryState,
      target: parseTarget(String(reply[2])),
      parentId: String(reply[3]),
      enqueueFailed: reply[4] === 1,
    };
  }

  /** Release a recovery claim; `error` records a failed enqueue (the row stays due). */
  async releaseStale(
    id: DeliveryId,
    token: string,
    error: string | undefined,
    now = Date.now(),
  ): Promise<boolean> {
    const reply = await releaseStaleScript.run(
      this.redis,
      [this.keys.delivery(id), this.keys.watch(bucketOf(id))],
      [id, token, error === undefined ? now + this.opts.staleAfterMs : now, error ?? ""],
    );
    return reply === 1;
  }
}

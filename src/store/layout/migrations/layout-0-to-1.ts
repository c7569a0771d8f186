// Layout 0 -> 1: pre-ledger data carried into the delivery ledger, so nothing queued, retrying or
// dead-lettered before an upgrade is lost. Each hook record becomes a ledger record with a row per
// sink (state, attempts, times and last error kept; a dead one listed in the DLQ with its class and
// reason), and each live row gets its job in the current queues (the row's id is the job's, so a job
// added twice is added once). The old hook record and its DLQ entries are removed as soon as the hook
// is carried; the rest of the old plan (queues, indexes, dedup keys, replays) once everything is.
// Steps: inventory (refuses keys the pre-ledger release never wrote), hooks, dedup, old-keys.
import { Queue } from "bullmq";
import { isId } from "../../../domain/ids.ts";
import { DELIVERY_JOB_NAME, type DeliveryJobData, queueNameOf } from "../../../queue/delivery-job.ts";
import type { Keys } from "../../keys.ts";
import type { RedisClient } from "../../redis-client.ts";
import { LayoutError } from "../layouts.ts";
import type { LayoutMigration, MigrationContext, PlanContext } from "../migration.ts";
import {
  type CarriedRow,
  type CarriedState,
  type PreLedgerHook,
  carriedRows,
  readPreLedgerHook,
  writeCarriedHook,
} from "./carry-pre-ledger-hook.ts";
import { PreLedgerKeys } from "./pre-ledger-layout.ts";
import { censusOf, scanKeys } from "./scan-pre-ledger.ts";

/** Hooks carried at once. */
const CONCURRENCY = 32;
/** A progress line every this many hooks. */
const PROGRESS_EVERY = 1000;

export interface Layout0To1Hooks {
  /** Called once a hook's record and rows are written, before its jobs (tests crash a run here). */
  readonly afterWrite?: (hookId: string) => void;
}

type Tally = Record<CarriedState, number>;
const emptyTally = (): Tally => ({ pending: 0, retrying: 0, delivered: 0, dead: 0 });

/** Every pre-ledger hook of the prefix, read, with `each` run on up to CONCURRENCY at once. */
async function eachHook(
  ctx: PlanContext,
  old: PreLedgerKeys,
  each: (hook: PreLedgerHook, key: string) => Promise<void>,
): Promise<void> {
  await scanKeys(ctx.redis, `${old.base}:hook:`, async (batch) => {
    for (let i = 0; i < batch.length; i += CONCURRENCY) {
      await Promise.all(
        batch.slice(i, i + CONCURRENCY).map(async (key) => {
          const id = old.hookIdOf(key);
          if (!isId("hk", id)) return;
          const hook = await readPreLedgerHook(ctx.redis, old, id);
          if (hook) await each(hook, key);
        }),
      );
    }
  });
}

/** The queues live rows' jobs go to, made as they are first needed. */
class JobAdder {
  private readonly queues = new Map<string, Queue<DeliveryJobData>>();

  constructor(
    private readonly redis: RedisClient,
    private readonly keys: Keys,
    private readonly partitions: Readonly<Record<string, number>> | undefined,
  ) {}

  /** Whether a row to `sink` gets a job here (one to a sink no longer configured is recovery's). */
  wants(row: CarriedRow): boolean {
    return row.runAt !== undefined && (this.partitions === undefined || row.sink in this.partitions);
  }

  async add(hookId: string, row: CarriedRow, now: number): Promise<void> {
    const name = queueNameOf({ kind: "sink", name: row.sink }, row.id, this.partitions ?? {});
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue<DeliveryJobData>(name, {
        connection: this.redis,
        prefix: this.keys.queuePrefix(name),
      });
      this.queues.set(name, queue);
    }
    const delay = Math.max(0, (row.runAt ?? now) - now);
    await queue.add(DELIVERY_JOB_NAME, { p: hookId }, { jobId: row.id, ...(delay > 0 ? { delay } : {}) });
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
  }
}

async function refuseUnknown(ctx: PlanContext, old: PreLedgerKeys): Promise<Record<string, number>> {
  const census = await censusOf(ctx.redis, old.base);
  if (census.unknown > 0)
    throw new LayoutError(
      `Redis prefix "${ctx.keys.prefix}" holds ${census.unknown} key(s) the pre-ledger release never wrote (e.g. ${census.unknownExamples.join(", ")}): not a layout this release can migrate, so it will not start; see "Upgrading" in the README`,
    );
  return census.counts;
}

async function plan(ctx: PlanContext): Promise<string[]> {
  const old = new PreLedgerKeys(ctx.keys);
  const census = await censusOf(ctx.redis, old.base);
  const now = Date.now();
  const tally = emptyTally();
  let hooks = 0;
  let jobs = 0;
  const adder = new JobAdder(ctx.redis, ctx.keys, ctx.settings.sinkPartitions);
  await eachHook(ctx, old, async (hook) => {
    hooks += 1;
    for (const row of carriedRows(ctx.keys, hook, now, ctx.settings)) {
      tally[row.state] += 1;
      if (adder.wants(row)) jobs += 1;
    }
  });
  const lines = [
    `carry ${hooks} hook record(s) into the ledger with ${Object.values(tally).reduce((a, b) => a + b, 0)} delivery row(s): ${tally.pending} pending, ${tally.retrying} retrying, ${tally.delivered} delivered, ${tally.dead} dead (listed in the DLQ)`,
    `add ${jobs} delivery job(s) to the current queues (a retry's at its next attempt)`,
    `carry ${census.counts.dedup} dedup key(s) with their time to live`,
    `then remove the pre-ledger keys: ${census.counts.queue} of the old queues, ${census.counts.dlq} of the old DLQ (entries whose hook expired are dropped), ${census.counts.replay} replay record(s) (an unfinished replay ends), ${census.counts.pending + census.counts.lock} other`,
  ];
  if (census.unknown > 0)
    lines.push(
      `would stop first: ${census.unknown} key(s) the pre-ledger release never wrote (e.g. ${census.unknownExamples.join(", ")})`,
    );
  return lines;
}

async function carryHooks(ctx: MigrationContext, old: PreLedgerKeys, hooks: Layout0To1Hooks): Promise<void> {
  const adder = new JobAdder(ctx.redis, ctx.keys, ctx.settings.sinkPartitions);
  const tally = emptyTally();
  let carried = 0;
  let again = 0;
  try {
    await eachHook(ctx, old, async (hook, key) => {
      const now = Date.now();
      const rows = carriedRows(ctx.keys, hook, now, ctx.settings);
      // False: an interrupted run wrote this one; its jobs and the removal may not have followed.
      if (!(await writeCarriedHook(ctx.redis, ctx.keys, hook, rows))) again += 1;
      hooks.afterWrite?.(hook.id);
      for (const row of rows) if (adder.wants(row)) await adder.add(hook.id, row, now);
      await ctx.redis.del(key, ...hook.sinks.map((s) => old.dlqEntry(hook.id, s.sink)));
      for (const row of rows) tally[row.state] += 1;
      if (++carried % PROGRESS_EVERY === 0)
        ctx.logger.info({ hooks: carried, ...tally }, `layout migration 0 -> 1: ${carried} hooks carried`);
    });
  } finally {
    await adder.close();
  }
  ctx.logger.info(
    { hooks: carried, written_before: again, ...tally },
    `layout migration 0 -> 1: ${carried} hooks carried (${tally.pending} pending, ${tally.retrying} retrying, ${tally.delivered} delivered, ${tally.dead} dead)`,
  );
}

/** Dedup keys keep refusing a second copy for the rest of their TTL (same identity string). */
async function carryDedup(ctx: MigrationContext, old: PreLedgerKeys): Promise<void> {
  let carried = 0;
  await scanKeys(ctx.redis, `${old.base}:dedup:`, async (batch) => {
    for (const key of batch) {
      const [first, ttl] = await Promise.all([ctx.redis.get(key), ctx.redis.pttl(key)]);
      if (first !== null && ttl > 0) {
        await ctx.redis.set(ctx.keys.dedup(old.dedupIdentityOf(key)), first, "PX", ttl, "NX");
        carried += 1;
      }
      await ctx.redis.del(key);
    }
  });
  ctx.logger.info({ dedup_keys: carried }, `layout migration 0 -> 1: ${carried} dedup keys carried`);
}

async function removeOldKeys(ctx: MigrationContext, old: PreLedgerKeys): Promise<void> {
  let removed = 0;
  await scanKeys(ctx.redis, `${old.base}:`, async (batch) => {
    // One key a command: BullMQ's keys and the rest may sit on other slots of a cluster.
    await Promise.all(batch.map((key) => ctx.redis.unlink(key)));
    removed += batch.length;
  });
  ctx.logger.info({ keys: removed }, `layout migration 0 -> 1: ${removed} pre-ledger keys removed`);
}

export function createLayout0To1(hooks: Layout0To1Hooks = {}): LayoutMigration {
  return {
    from: 0,
    to: 1,
    description:
      "carry pre-ledger hook records and their deliveries (queued, retrying, in flight, dead-lettered) into ledger rows and jobs, then remove the pre-ledger keys",
    plan,
    run: async (ctx) => {
      const old = new PreLedgerKeys(ctx.keys);
      // Reads only; its marker also tells a later boot that ledger keys beside old ones are this run's.
      await ctx.step("inventory", async () => {
        const counts = await refuseUnknown(ctx, old);
        ctx.logger.info(counts, "layout migration 0 -> 1: pre-ledger keys found");
      });
      await ctx.step("hooks", () => carryHooks(ctx, old, hooks));
      await ctx.step("dedup", () => carryDedup(ctx, old));
      await ctx.step("old-keys", () => removeOldKeys(ctx, old));
    },
  };
}

export const LAYOUT_0_TO_1: LayoutMigration = createLayout0To1();

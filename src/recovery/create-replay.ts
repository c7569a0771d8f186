// Creating a replay, the use case behind POST /v1/replays: resolve what it selects (explicit ids, or
// the narrowest DLQ index for its filter), snapshot the moment, write the durable record and hand it
// to the runners. The route only parses and answers.
import { type DlqFilter, parseDlqId, rangeOf } from "../domain/dlq.ts";
import { sinkDeliveryId } from "../domain/hook.ts";
import { isId } from "../domain/ids.ts";
import type { ReplayFilter } from "../domain/replay.ts";
import type { DeliveryStore } from "../store/delivery-store.ts";
import type { DlqStore } from "../store/dlq-store.ts";
import type { HookStore } from "../store/hook-store.ts";
import type { ReplayQueue } from "../queue/replay-queue.ts";
import type { ReplayRecord, ReplayStore } from "../store/replay-store.ts";
import { dlqFilterOf } from "./replay-scan.ts";

export interface CreateReplayDeps {
  readonly replays: ReplayStore;
  /** Replays one tenant may have running or paused at once (`replays.max_per_tenant`). */
  readonly maxPerTenant: number;
  readonly replayQueue: Pick<ReplayQueue, "enqueue">;
  readonly dlq: DlqStore;
  readonly hooks: Pick<HookStore, "summary">;
  readonly ledger: Pick<DeliveryStore, "getMany">;
}

/** An id in `filter.ids` that names neither a DLQ entry nor a hook. */
export class UnknownReplayTarget extends Error {
  constructor(readonly value: string) {
    super(`"${value.slice(0, 80)}" is neither a DLQ entry id nor a hook id`);
  }
}

/** The caller's tenant has as many live replays as it may have: it must wait for one to end. */
export class TooManyReplays extends Error {
  constructor(
    readonly tenant: string | undefined,
    readonly live: number,
  ) {
    super(
      `${tenant === undefined ? "untenanted replays" : `tenant "${tenant}"`} already ${live === 1 ? "has" : "have"} ` +
        `${live} replays running or paused (replays.max_per_tenant); cancel one or wait for one to finish`,
    );
  }
}

export interface ReplayRequest {
  /** The tenant of the token: a tenant-bound replay sees only that tenant's entries. */
  readonly tenant: string | undefined;
  readonly filter: ReplayFilter;
  readonly ratePerS: number;
  readonly now?: number;
}

/**
 * DLQ entry ids as given; a hook id stands for each of its deliveries that is dead. For a tenant-bound
 * caller another tenant's hook stands for nothing (as if it did not exist): how many of its deliveries
 * are dead is that tenant's business, and would otherwise show in the replay's estimate.
 */
async function expandIds(
  deps: CreateReplayDeps,
  ids: readonly string[],
  tenant: string | undefined,
): Promise<string[]> {
  const out = new Set<string>();
  for (const id of ids) {
    const delivery = parseDlqId(id);
    if (delivery) {
      out.add(delivery);
      continue;
    }
    if (!isId("hk", id)) throw new UnknownReplayTarget(id);
    const hook = await deps.hooks.summary(id);
    if (hook === undefined || (tenant !== undefined && hook.tenant !== tenant)) continue;
    const rowIds = hook.sinks.map((sink) => sinkDeliveryId(id, sink));
    const rows = await deps.ledger.getMany(rowIds);
    rows.forEach((row) => {
      if (row?.state === "dead") out.add(row.id);
    });
  }
  return [...out];
}

export async function createReplay(deps: CreateReplayDeps, req: ReplayRequest): Promise<ReplayRecord> {
  const createdAt = req.now ?? Date.now();
  const { ids } = req.filter;
  const scope: DlqFilter = dlqFilterOf({ filter: req.filter, tenant: req.tenant });
  const targets = ids ? await expandIds(deps, ids, req.tenant) : undefined;
  const index = targets ? undefined : await deps.dlq.narrowestIndex(scope);
  // A tenant-bound estimate counts the tenant's own index: the narrowest one may be another tenant's
  // endpoint's, whose size is not the caller's to learn.
  const counted = index !== undefined && req.tenant !== undefined ? (`tenant:${req.tenant}` as const) : index;
  const total = counted
    ? await deps.dlq.countInRange(counted, rangeOf(scope, createdAt))
    : (targets?.length ?? 0);
  const created = await deps.replays.create(
    {
      tenant: req.tenant,
      filter: req.filter,
      rate_per_s: req.ratePerS,
      index,
      targets,
      total_estimate: total,
      created_at: createdAt,
    },
    deps.maxPerTenant,
  );
  if (created.kind === "at_cap") throw new TooManyReplays(req.tenant, created.live);
  const { record } = created;
  try {
    await deps.replayQueue.enqueue(record.id);
  } catch (err) {
    await deps.replays.delete(record.id).catch(() => undefined);
    throw err;
  }
  return record;
}

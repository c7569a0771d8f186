// The steps of the layout 1 -> 2 migration, each a walk over one family of keys that either writes
// (run) or only counts what it would write (plan, for `switchyard migrate --dry-run`). Every write is
// conditional on what it finds, so a step run twice, or over keys an old process is still writing
// beside it, changes each key at most once and never recreates one deleted meanwhile.
import { Queue } from "bullmq";
import { LuaScript } from "../../lua-script.ts";
import type { PlanContext } from "../migration.ts";
import { forEachMember, literal, scanKeys } from "./scan-keys.ts";

const migrateEndpoint = new LuaScript("migrate-endpoint-2.lua", 2);
const expireUnheldEvent = new LuaScript("expire-unheld-event-1.lua", 1);
const expireQuarantine = new LuaScript("expire-quarantine-3.lua", 3);
const listLiveReplay = new LuaScript("list-live-replay-2.lua", 2);

export interface Step {
  readonly name: string;
  /** The change a count stands for, for logs and the dry run. */
  describe(count: number): string;
  /** Walk the keys: write when `write`, else only read; how many keys it changed (or would). */
  visit(ctx: PlanContext, write: boolean): Promise<number>;
}

const flag = (write: boolean): string => (write ? "1" : "0");

/** Endpoints: `payload_format: raw` where missing, tenantless ones into `list:-`. */
const endpoints: Step = {
  name: "endpoints",
  describe: (n) =>
    `${n} endpoint change(s): payload_format raw where unset, tenantless ones listed in list:-`,
  async visit({ redis, keys }, write) {
    let changed = 0;
    await forEachMember(redis, keys.endpointsAll, async (ids) => {
      for (const id of ids) {
        const [stamped, listed] = (await migrateEndpoint.run(
          redis,
          [keys.endpoint(id), keys.endpointsWithoutTenant],
          [id, flag(write)],
        )) as [number, number];
        changed += stamped + listed;
      }
    });
    return changed;
  },
};

/** Replays: live ones into their tenant's live set. */
const liveReplays: Step = {
  name: "live-replays",
  describe: (n) => `${n} running or paused replay(s) added to their tenant's live set`,
  async visit({ redis, keys }, write) {
    let changed = 0;
    await forEachMember(redis, keys.replayIndex, async (ids) => {
      for (const id of ids) {
        const tenant = await redis.hget(keys.replay(id), "tenant");
        changed += (await listLiveReplay.run(
          redis,
          [keys.replay(id), keys.replaysLive(tenant ?? undefined)],
          [id, flag(write)],
        )) as number;
      }
    });
    return changed;
  },
};

/** Dedup keys of sources whose tenants now share one identity: copied under it, with their TTL. */
const dedupIdentities: Step = {
  name: "dedup-identities",
  describe: (n) => `${n} dedup key(s) copied to the identity their source now dedups under`,
  async visit({ redis, keys, settings }, write) {
    let changed = 0;
    if (settings.sharedDedupSources.size === 0) return 0;
    // `{<prefix>:<bucket>}:dedup:<tenant>:<source>:<dedup key>` (tenant and source names hold no colon)
    await scanKeys(redis, `${literal(`{${keys.prefix}:`)}*}:dedup:*`, async (batch) => {
      for (const key of batch) {
        const [tenant, source, ...rest] = key.slice(key.indexOf("}:dedup:") + "}:dedup:".length).split(":");
        if (source === undefined || !settings.sharedDedupSources.has(source)) continue;
        const shared = settings.sharedDedupSources.get(source) ?? "-";
        if (tenant === shared) continue;
        const target = keys.dedup(`${shared}:${source}:${rest.join(":")}`);
        const [[, first], [, left]] = (await redis.multi().get(key).pttl(key).exec()) as [
          [unknown, string | null],
          [unknown, number],
        ];
        if (first === null || left === -2 || (await redis.exists(target)) === 1) continue;
        changed += 1;
        if (!write) continue;
        if (left > 0) await redis.set(target, first, "PX", left, "NX");
        else await redis.set(target, first, "NX");
      }
    });
    return changed;
  },
};

/** Events no live row holds: they expire with their rows (retention_s without any). */
const unheldEvents: Step = {
  name: "unheld-events",
  describe: (n) => `${n} event(s) no live delivery holds given their expiry`,
  async visit({ redis, keys, settings }, write) {
    let changed = 0;
    await scanKeys(redis, `${literal(`{${keys.prefix}:`)}*}:event:*`, async (batch) => {
      for (const key of batch) {
        const tag = key.slice(0, key.indexOf("}:event:") + 1);
        const ms = (await expireUnheldEvent.run(
          redis,
          [key],
          [`${tag}:dl:`, settings.retentionS * 1000, flag(write)],
        )) as number;
        if (ms > 0) changed += 1;
      }
    });
    return changed;
  },
};

/** The quarantine's index, sizes and byte count: they expire with the newest entry. */
const quarantine: Step = {
  name: "quarantine-expiry",
  describe: (n) => `${n} quarantine index key(s) given the expiry of the newest entry (or deleted)`,
  async visit({ redis, keys }, write) {
    const [changed] = (await expireQuarantine.run(
      redis,
      [keys.quarantineIndex, keys.quarantineBytes, keys.quarantineSizes],
      [keys.quarantined(""), flag(write)],
    )) as [number, number];
    return changed;
  },
};

/** Breaker, rate and in-flight keys of endpoints deleted before they went with them. */
const orphanGates: Step = {
  name: "orphan-endpoint-gates",
  describe: (n) => `${n} breaker/rate/in-flight key(s) of deleted endpoints deleted`,
  async visit({ redis, keys }, write) {
    let changed = 0;
    const head = `{${keys.prefix}:ep:`;
    await scanKeys(redis, `${literal(head)}*`, async (batch) => {
      for (const key of batch) {
        const id = key.slice(head.length, key.indexOf("}:", head.length));
        if ((await redis.exists(keys.endpoint(id))) === 1) continue;
        changed += 1;
        if (write) await redis.unlink(key);
      }
    });
    return changed;
  },
};

/** Completed replay jobs, kept for good before (a finished replay's record says how it ended). */
const finishedReplayJobs: Step = {
  name: "finished-replay-jobs",
  describe: (n) => `${n} completed replay job(s) removed`,
  async visit({ redis, keys }, write) {
    // Counted from the completed set itself: a BullMQ Queue object writes the queue's meta, and a dry
    // run writes nothing.
    if (!write) return await redis.zcard(`${keys.queuePrefix("replays")}:replays:completed`);
    const queue = new Queue("replays", { connection: redis, prefix: keys.queuePrefix("replays") });
    try {
      let removed = 0;
      for (;;) {
        const batch = await queue.clean(0, 1000, "completed");
        removed += batch.length;
        if (batch.length < 1000) return removed;
      }
    } finally {
      await queue.close();
    }
  },
};

/** In the order they run. */
export const STEPS: readonly Step[] = [
  endpoints,
  liveReplays,
  dedupIdentities,
  unheldEvents,
  quarantine,
  orphanGates,
  finishedReplayJobs,
];

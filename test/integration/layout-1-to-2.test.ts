// The layout 1 -> 2 migration, step by step, over data written in the shape release 0.1.0 wrote it
// (its endpoints without payload_format, events of a tenant under their bare id, caps' sets missing,
// keys kept for good): each step changes what it should once, leaves what it should not, and a dry
// run only counts.
import { Queue, Worker } from "bullmq";
import { afterEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/observability/logger.ts";
import { DeliveryStore, ledgerOptions } from "../../src/store/delivery-store.ts";
import { EndpointStore } from "../../src/store/endpoint-store.ts";
import { EventStore, endpointDeliveryId } from "../../src/store/event-store.ts";
import { ensureLayout } from "../../src/store/layout/ensure-layout.ts";
import { type LayoutSettings, DEFAULT_LAYOUT_SETTINGS } from "../../src/store/layout/migration.ts";
import { planLayout } from "../../src/store/layout/plan-layout.ts";
import type { EndpointId } from "../../src/domain/ids.ts";
import { type ScratchPrefix, scratchPrefix } from "../support/layout-fixtures.ts";
import { outboundConfig } from "../support/outbound.ts";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A scratch prefix holding layout 1, as a deployment of 0.1.0 stamped by this release's boot. */
async function layout1(): Promise<ScratchPrefix> {
  const s = scratchPrefix();
  cleanups.push(() => s.cleanup());
  await s.redis.set(s.keys.layoutVersion, "1");
  return s;
}

async function migrate(s: ScratchPrefix, settings: LayoutSettings = DEFAULT_LAYOUT_SETTINGS) {
  return ensureLayout(s.redis, s.keys, silentLogger(), { settings });
}

/** The dry run's line for one step. */
async function planned(s: ScratchPrefix, step: string, settings = DEFAULT_LAYOUT_SETTINGS): Promise<string> {
  const plan = await planLayout(s.redis, s.keys, { settings });
  return plan.lines.find((l) => l.trim().startsWith(`${step}:`))?.trim() ?? "";
}

describe("layout 1 -> 2", () => {
  it("endpoints_changed_body_on_upgrade: 0.1.0's endpoints keep the bare payload; tenantless ones are listed for the cap", async () => {
    const s = await layout1();
    const { keys, redis } = s;
    // 0.1.0's endpoints: this release's record without payload_format, tenantless ones in list:all only.
    const store = new EndpointStore(redis, keys);
    const asOld = async (tenant?: string) => {
      const made = await store.create({ url: "https://example.com/h", event_types: ["*"], tenant });
      await redis.hdel(keys.endpoint(made.id), "payload_format");
      await redis.zrem(keys.endpointsWithoutTenant, made.id);
      return made.id;
    };
    const [old1, old2] = [await asOld(), await asOld("acme")];
    // Deleted while the migration walks the list: not recreated.
    await redis.zadd(keys.endpointsAll, 0, "ep_gone");
    expect(await planned(s, "endpoints")).toMatch(/^endpoints: 3 endpoint change/);
    expect(await redis.exists(keys.endpointsWithoutTenant)).toBe(0);

    expect(await migrate(s)).toMatchObject({ version: 2, migrated: ["1->2"] });
    expect(await redis.hget(keys.endpoint(old1), "payload_format")).toBe("raw");
    expect(await redis.hget(keys.endpoint(old2), "payload_format")).toBe("raw");
    expect(await redis.zrange(keys.endpointsWithoutTenant, 0, -1)).toEqual([old1]);
    expect(await redis.exists(keys.endpoint("ep_gone"))).toBe(0);
    expect((await store.get(old2))?.payload_format).toBe("raw");
    // One an old process writes after the migration has no field either: it is read as raw too.
    const late = await asOld();
    expect((await store.get(late))?.payload_format).toBe("raw");
    // New endpoints still get the standard shape.
    expect((await store.create({ url: "https://example.com/n", event_types: ["*"] })).payload_format).toBe(
      "standard",
    );
  });

  it("tenant_event_lost_on_upgrade: an event 0.1.0 stored under its bare id is found, re-published as a duplicate, and not another tenant's", async () => {
    const s = await layout1();
    const config = outboundConfig();
    const ledger = new DeliveryStore(s.redis, s.keys, ledgerOptions(config));
    const events = new EventStore(s.redis, s.keys, ledger);
    const ep = "ep_01" as EndpointId;
    const record = {
      id: "evt_1",
      type: "order.paid",
      tenant: "acme",
      createdAt: Date.now(),
      payload: Buffer.from("{}"),
    };
    const opts = { staleAfterMs: 60_000, retentionS: 600, page: { kind: "last" } as const };
    // 0.1.0 named the event by its id alone: key event:evt_1, rows' parent evt_1.
    expect(await events.publish(record, [ep], { ...opts, ref: "evt_1" })).toEqual({
      kind: "written",
      rows: ["created"],
      jobsAdded: false,
    });
    expect(await s.redis.exists(s.keys.event("acme/evt_1"))).toBe(0);
    await migrate(s);

    expect((await events.get("acme", "evt_1"))?.type).toBe("order.paid");
    expect((await events.rows("acme", "evt_1")).map((r) => r.id)).toEqual([endpointDeliveryId("evt_1", ep)]);
    expect(await events.resolveRef("acme", "evt_1")).toBe("evt_1");
    expect(
      await events.publish(record, [ep], { ...opts, ref: await events.resolveRef("acme", "evt_1") }),
    ).toEqual({
      kind: "written",
      rows: ["duplicate"],
      jobsAdded: false,
    });
    // Another tenant's evt_1 is its own event; a tenantless evt_1 meets acme's record and is refused.
    expect(await events.resolveRef("globex", "evt_1")).toBe("globex/evt_1");
    expect(await events.get("globex", "evt_1")).toBeUndefined();
    const tenantless = { ...record, tenant: undefined };
    expect(await events.publish(tenantless, [ep], opts)).toEqual({ kind: "conflict" });
  });

  it("event_kept_for_good: an event no live row holds expires with its longest-kept row, or after retention_s", async () => {
    const s = await layout1();
    const { keys, redis } = s;
    const tag = keys.bucketTag(5);
    await redis.hset(`${tag}:event:nobody`, { type: "a.b", live: "0" });
    await redis.hset(`${tag}:event:finished`, { type: "a.b", live: "0", "r:dl_row5": "1" });
    await redis.hset(`${tag}:dl:dl_row5`, "st", "delivered");
    await redis.expire(`${tag}:dl:dl_row5`, 5_000);
    await redis.hset(`${tag}:event:busy`, { type: "a.b", live: "1" });
    await redis.hset(`${tag}:event:expiring`, { type: "a.b", live: "0" });
    await redis.expire(`${tag}:event:expiring`, 77);
    expect(await planned(s, "unheld-events")).toBe(
      "unheld-events: 2 event(s) no live delivery holds given their expiry",
    );

    await migrate(s, { ...DEFAULT_LAYOUT_SETTINGS, retentionS: 900 });
    expect(await redis.ttl(`${tag}:event:nobody`)).toBeGreaterThan(890);
    expect(await redis.ttl(`${tag}:event:nobody`)).toBeLessThanOrEqual(900);
    expect(await redis.ttl(`${tag}:event:finished`)).toBeGreaterThan(4_990);
    expect(await redis.ttl(`${tag}:event:busy`)).toBe(-1);
    expect(await redis.ttl(`${tag}:event:expiring`)).toBeLessThanOrEqual(77);
  });

  it("quarantine_index_kept_for_good: index, sizes and bytes expire with the newest entry, or go with none left", async () => {
    const s = await layout1();
    const { keys, redis } = s;
    await redis.zadd(keys.quarantineIndex, 1, "q1", 2, "q2");
    await redis.hset(keys.quarantineSizes, { q1: "10", q2: "20" });
    await redis.set(keys.quarantineBytes, "30");
    await redis.hset(keys.quarantined("q1"), "source", "demo");
    await redis.expire(keys.quarantined("q1"), 300);
    await redis.hset(keys.quarantined("q2"), "source", "demo");
    await redis.expire(keys.quarantined("q2"), 3_000);
    await migrate(s);
    for (const key of [keys.quarantineIndex, keys.quarantineSizes, keys.quarantineBytes]) {
      expect(await redis.ttl(key)).toBeGreaterThan(2_990);
      expect(await redis.ttl(key)).toBeLessThanOrEqual(3_000);
    }

    const empty = await layout1();
    await empty.redis.zadd(empty.keys.quarantineIndex, 1, "q-expired");
    await empty.redis.set(empty.keys.quarantineBytes, "10");
    await migrate(empty);
    expect(await empty.redis.exists(empty.keys.quarantineIndex, empty.keys.quarantineBytes)).toBe(0);
  });

  it("deleted_endpoint_gates_kept: a deleted endpoint's breaker, rate and in-flight keys go; a live one's stay", async () => {
    const s = await layout1();
    const { keys, redis } = s;
    await redis.hset(keys.endpoint("ep_live"), "id", "ep_live");
    for (const key of keys.endpointGates("ep_gone")) await redis.set(key, "1");
    await redis.set(keys.endpointGate("ep_live", "rate"), "1");
    expect(await planned(s, "orphan-endpoint-gates")).toMatch(/^orphan-endpoint-gates: 4 /);
    await migrate(s);
    expect(await redis.exists(...keys.endpointGates("ep_gone"))).toBe(0);
    expect(await redis.exists(keys.endpointGate("ep_live", "rate"))).toBe(1);
  });

  it("replay_cap_ignored_live_replays: running and paused replays join their tenant's live set, ended ones do not", async () => {
    const s = await layout1();
    const { keys, redis } = s;
    const replays = {
      rp_a: ["running", "acme"],
      rp_b: ["paused", undefined],
      rp_c: ["done", "acme"],
    } as const;
    for (const [id, [state, tenant]] of Object.entries(replays)) {
      await redis.hset(keys.replay(id), { id, state, ...(tenant ? { tenant } : {}) });
      await redis.zadd(keys.replayIndex, 0, id);
    }
    await migrate(s);
    expect(await redis.smembers(keys.replaysLive("acme"))).toEqual(["rp_a"]);
    expect(await redis.smembers(keys.replaysLive(undefined))).toEqual(["rp_b"]);
  });

  it("shared_dedup_lost_on_upgrade: a source's tenants sharing its secrets keep recognising a duplicate sent before", async () => {
    const s = await layout1();
    const { keys, redis } = s;
    const settings = { ...DEFAULT_LAYOUT_SETTINGS, sharedDedupSources: new Map([["stripe", undefined]]) };
    // 0.1.0: the identity named the path tenant.
    await redis.set(keys.dedup("acme:stripe:evt_9"), "hk_first", "EX", 1_000);
    await redis.set(keys.dedup("acme:other:evt_9"), "hk_other", "EX", 1_000);
    expect(await planned(s, "dedup-identities", settings)).toMatch(/^dedup-identities: 1 /);
    await migrate(s, settings);
    expect(await redis.get(keys.dedup("-:stripe:evt_9"))).toBe("hk_first");
    expect(await redis.ttl(keys.dedup("-:stripe:evt_9"))).toBeGreaterThan(990);
    expect(await redis.exists(keys.dedup("-:other:evt_9"))).toBe(0);
  });

  it("finished_replay_job_kept: completed replay jobs are removed", async () => {
    const s = await layout1();
    const connection = { host: "127.0.0.1", port: 6379, maxRetriesPerRequest: null };
    const prefix = s.keys.queuePrefix("replays");
    const queue = new Queue("replays", { connection, prefix });
    const worker = new Worker("replays", async () => "ok", { connection, prefix });
    cleanups.push(async () => {
      await worker.close();
      await queue.close();
    });
    await queue.add("replay", {}, { jobId: "rp_done" });
    for (let i = 0; i < 100 && (await queue.getCompletedCount()) < 1; i++)
      await new Promise((r) => setTimeout(r, 50));
    await worker.close();
    expect(await planned(s, "finished-replay-jobs")).toBe(
      "finished-replay-jobs: 1 completed replay job(s) removed",
    );
    await migrate(s);
    expect(await queue.getCompletedCount()).toBe(0);
  });

  it("runs once: a second migrate finds layout 2 and the dry run counts nothing left", async () => {
    const s = await layout1();
    await s.redis.hset(s.keys.endpoint("ep_x"), "id", "ep_x");
    await s.redis.zadd(s.keys.endpointsAll, 0, "ep_x");
    await migrate(s);
    expect(await migrate(s)).toEqual({ version: 2, migrated: [] });
    // The steps themselves, run again (a crash between a step's writes and its marker): nothing more.
    await s.redis.set(s.keys.layoutVersion, "1");
    const plan = await planLayout(s.redis, s.keys);
    expect(plan.lines.filter((l) => /: [1-9]\d* /.test(l))).toEqual([]);
  });
});

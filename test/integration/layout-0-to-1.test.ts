// The layout 0 -> 1 migration on pre-ledger keys written from that release's shapes
// (test/support/pre-ledger-fixtures.ts): a run that crashes halfway and runs again carries every
// delivery once (no row, job or DLQ listing twice, none lost), --dry-run counts what would move, and
// a prefix holding both plans without a migration under way is refused.
import { describe, expect, it } from "vitest";
import { sinkDeliveryId } from "../../src/domain/hook.ts";
import { type HookId, bucketOf } from "../../src/domain/ids.ts";
import { silentLogger } from "../../src/observability/logger.ts";
import { ensureLayout } from "../../src/store/layout/ensure-layout.ts";
import { LayoutError } from "../../src/store/layout/layouts.ts";
import { createLayout0To1 } from "../../src/store/layout/migrations/layout-0-to-1.ts";
import { layout1To2 } from "../../src/store/layout/migrations/layout-1-to-2.ts";
import { planLayout } from "../../src/store/layout/plan-layout.ts";
import { type ScratchPrefix, scratchPrefixes } from "../support/layout-fixtures.ts";
import { type PreLedgerSinkFixture, writePreLedgerHook } from "../support/pre-ledger-fixtures.ts";

const scratch = scratchPrefixes();

/** Per hook: a pending delivery to `a`, and to `b` one of each other state in turn (then a replayed dead one, and a retrying one beside its replay's leftover DLQ entry). */
const SHAPES: readonly (readonly PreLedgerSinkFixture[])[] = [
  [{ sink: "a" }, { sink: "b", state: "retrying", attempts: 2 }],
  [{ sink: "a" }, { sink: "b", state: "dead", attempts: 3 }],
  [{ sink: "a" }, { sink: "b", state: "delivered" }],
  [{ sink: "a" }, { sink: "b", state: "dead", attempts: 2, requeued: true }],
  [{ sink: "a" }, { sink: "b", state: "retrying", attempts: 1, staleDlqEntry: true }],
];

/** What a delivery becomes: a requeued dead one is due again with a fresh budget, as a replay makes it. */
function expected(d: PreLedgerSinkFixture): { st: string; a: string } {
  if (d.requeued) return { st: "pending", a: "0" };
  return { st: d.state ?? "pending", a: String(d.attempts ?? (d.state ? 1 : 0)) };
}
const isLive = (d: PreLedgerSinkFixture): boolean =>
  expected(d).st === "pending" || expected(d).st === "retrying";

async function writeHooks(s: ScratchPrefix, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++)
    ids.push(await writePreLedgerHook(s.redis, s.prefix, SHAPES[i % SHAPES.length] ?? []));
  return ids;
}

/** Job ids waiting or delayed in sink `sink`'s (single) queue, sorted. */
async function jobsOf(s: ScratchPrefix, sink: string): Promise<string[]> {
  const base = `${s.keys.queuePrefix(`sink-${sink}`)}:sink-${sink}`;
  return [
    ...(await s.redis.lrange(`${base}:wait`, 0, -1)),
    ...(await s.redis.zrange(`${base}:delayed`, 0, -1)),
  ].sort();
}

describe("layout migration 0 -> 1", () => {
  it("resumes after a crash halfway: every delivery carried once, none lost, none doubled", async () => {
    const s = scratch();
    const ids = await writeHooks(s, 9);
    let writes = 0;
    // Crash right after the fourth hook's record and rows are written, before its jobs and removal.
    const crashing = createLayout0To1({
      afterWrite: () => {
        if (++writes === 4) throw new Error("crashed after a hook's write");
      },
    });
    await expect(
      ensureLayout(s.redis, s.keys, silentLogger(), { migrations: [crashing, layout1To2] }),
    ).rejects.toThrow("crashed after a hook's write");
    expect(await s.redis.get(s.keys.layoutVersion)).toBeNull();
    expect(Object.keys(await s.redis.hgetall(s.keys.layoutSteps(0, 1)))).toEqual(["inventory"]);

    const outcome = await ensureLayout(s.redis, s.keys, silentLogger(), {
      migrations: [crashing, layout1To2],
    });
    expect(outcome).toEqual({ version: 2, migrated: ["0->1", "1->2"] });
    expect(await s.redis.keys(`{${s.prefix}}:*`)).toEqual([]);

    const live = { a: [] as string[], b: [] as string[] };
    const dead: string[] = [];
    for (const [i, id] of ids.entries()) {
      const shape = SHAPES[i % SHAPES.length] ?? [];
      const record = await s.redis.hgetall(s.keys.hook(id as HookId));
      expect(record.live).toBe(String(shape.filter(isLive).length));
      for (const d of shape) {
        const rowId = sinkDeliveryId(id as HookId, d.sink);
        const row = await s.redis.hgetall(s.keys.delivery(rowId));
        expect(row).toMatchObject({ p: id, ...expected(d) });
        if (expected(d).st === "dead") {
          expect(row).toMatchObject({ ec: "permanent", le: "HTTP 400" });
          dead.push(rowId);
        } else if (isLive(d)) live[d.sink as "a" | "b"].push(rowId);
      }
    }
    // One job per live row (the crashed hook's too), none for a final one.
    expect(await jobsOf(s, "a")).toEqual(live.a.sort());
    expect(await jobsOf(s, "b")).toEqual(live.b.sort());
    const listed: string[] = [];
    for (const bucket of s.keys.buckets)
      listed.push(...(await s.redis.zrange(s.keys.dlqIndex(bucket, "all"), 0, -1)));
    expect(listed.sort()).toEqual(dead.sort());
    const watched: string[] = [];
    for (const id of ids)
      watched.push(...(await s.redis.zrange(s.keys.watch(bucketOf(id as HookId)), 0, -1)));
    expect([...new Set(watched)].sort()).toEqual([...live.a, ...live.b].sort());
  });

  it("a death recorded while its job was still active stays dead (killed before the job was failed); a replay in flight is due again", async () => {
    const s = scratch();
    const dying = await writePreLedgerHook(s.redis, s.prefix, [
      { sink: "b", state: "dead", attempts: 1, active: "before-death" },
    ]);
    const replaying = await writePreLedgerHook(s.redis, s.prefix, [
      { sink: "b", state: "dead", attempts: 1, requeued: true, active: "after-death" },
    ]);
    await ensureLayout(s.redis, s.keys, silentLogger());
    const row = (id: string) => s.redis.hgetall(s.keys.delivery(sinkDeliveryId(id as HookId, "b")));
    expect(await row(dying)).toMatchObject({ st: "dead", a: "1", ec: "permanent", le: "HTTP 400" });
    expect(await row(replaying)).toMatchObject({ st: "pending", a: "0" });
    expect(await jobsOf(s, "b")).toEqual([sinkDeliveryId(replaying as HookId, "b")]);
  });

  it("--dry-run counts what would move and writes nothing", async () => {
    const s = scratch();
    await writeHooks(s, 6);
    const before = await s.stored();
    const plan = await planLayout(s.redis, s.keys);
    expect(plan.refused).toBeUndefined();
    const text = plan.lines.join("\n");
    expect(text).toContain("would migrate layout 0 -> 1");
    expect(text).toContain(
      "carry 6 hook record(s) into the ledger with 12 delivery row(s): 7 pending, 3 retrying, 1 delivered, 1 dead (listed in the DLQ)",
    );
    expect(text).toContain("add 10 delivery job(s) to the current queues");
    expect(text).toContain("carry 6 dedup key(s)");
    expect(await s.stored()).toEqual(before);
  });

  it("a prefix holding pre-ledger and ledger keys with no migration under way is refused, untouched", async () => {
    const s = scratch();
    await writeHooks(s, 1);
    await s.redis.hset(`${s.keys.bucketTag(3)}:hook:hk_01m91annnarwrj6r3bk54aamam`, "live", "1");
    const before = await s.stored();
    const err = await ensureLayout(s.redis, s.keys, silentLogger()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LayoutError);
    expect((err as Error).message).toContain("holds both pre-ledger keys");
    expect(await s.stored()).toEqual(before);
  });
});

// Group commit at ingest: the hooks persisted within one tick are one script call on a single Redis,
// yet each hook is still judged alone (a duplicate inside the batch is a duplicate, a new hook beside
// it is written with its rows) and each caller gets its own outcome.
import { afterEach, expect, it, vi } from "vitest";
import { sinkDeliveryId } from "../../src/domain/hook.ts";
import { hookFixture, ledgerStores } from "../support/ledger.ts";
import { scratchRedis, testConfig } from "../support/test-gateway.ts";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

function setup() {
  const config = testConfig({ sinks: {}, sources: {} });
  const scratch = scratchRedis(config);
  cleanups.push(async () => {
    await scratch.cleanup();
    scratch.redis.disconnect();
  });
  return scratch;
}

it("persists a tick's hooks in one script call, each with its own outcome", async () => {
  const { redis, keys } = setup();
  const { hooks, ledger } = ledgerStores(redis, keys);
  const fresh = Array.from({ length: 20 }, (_, n) => hookFixture({ source: "src", sinks: ["a", "b"], n }));
  const first = fresh[0]!;
  // The same hook again (its dedup identity), under a new id, in the same tick.
  const copy = { ...first, id: hookFixture({ source: "src", sinks: ["a"] }).id };
  const evalsha = vi.spyOn(redis, "evalsha");
  const outcomes = await Promise.all(
    [...fresh, copy].map((h) => hooks.persist(h, { dedupTtlS: 60, staleAfterMs: 60_000 })),
  );
  expect(evalsha).toHaveBeenCalledTimes(1);
  expect(outcomes.slice(0, 20)).toEqual(fresh.map(() => ({ kind: "new" })));
  expect(outcomes[20]).toEqual({ kind: "duplicate", firstId: first.id });
  for (const hook of fresh) {
    const stored = await hooks.load(hook.id);
    expect(stored?.hook.body.equals(hook.body)).toBe(true);
    expect(stored?.deliveries.a?.state).toBe("pending");
    expect(stored?.deliveries.b?.state).toBe("pending");
  }
  expect(await hooks.record(copy.id)).toBeUndefined();
  expect(await ledger.get(sinkDeliveryId(copy.id, "a"))).toBeUndefined();
});

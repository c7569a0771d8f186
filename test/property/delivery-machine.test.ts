// The ledger's scripts against the domain's state table (delivery-machine.ts): random sequences of
// claim / finish / revive / stale-claim / reconcile, with the clock moving in between, run through the
// real Lua scripts on Redis. Every step that changed the row must be a transition the table lists,
// taken under its condition; every step the table does not allow must leave the row exactly as it was;
// and a write carrying a fencing token that is not the row's (a worker whose lease was taken over, a
// token never handed out, a recovery claim not the row's) must never write anything.
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { DeliveryState } from "../../src/domain/delivery.ts";
import {
  DELIVERY_TRANSITIONS,
  type Guard,
  type LedgerOperation,
  allows,
  transitionsOf,
} from "../../src/domain/delivery-machine.ts";
import { type ReplayId, newId } from "../../src/domain/ids.ts";
import type { DeliveryStore, Finish } from "../../src/store/delivery-store.ts";
import type { Keys } from "../../src/store/keys.ts";
import type { RedisClient } from "../../src/store/redis-client.ts";
import { hookFixture, ledgerStores, sinkRow } from "../support/ledger.ts";
import { runs } from "../support/property.ts";
import { scratchRedis, testConfig } from "../support/test-gateway.ts";

/** Which token a write carries: the last one handed out, an earlier one, or one never handed out. */
type Token = "latest" | "earlier" | "foreign";

type Step =
  | { readonly op: "claim"; readonly leaseMs: number }
  | { readonly op: "finish"; readonly outcome: Finish["outcome"]; readonly token: Token }
  | { readonly op: "revive" }
  | { readonly op: "stale-claim"; readonly release: boolean }
  | { readonly op: "reconcile"; readonly token: Token }
  | { readonly op: "advance"; readonly ms: number };

const token = fc.constantFrom<Token>("latest", "latest", "earlier", "foreign");
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ op: fc.constant("claim" as const), leaseMs: fc.integer({ min: 100, max: 5000 }) }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      op: fc.constant("finish" as const),
      outcome: fc.constantFrom<Finish["outcome"]>("delivered", "retrying", "dead", "release"),
      token,
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("revive" as const) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("stale-claim" as const), release: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("reconcile" as const), token }) },
  {
    weight: 3,
    arbitrary: fc.record({ op: fc.constant("advance" as const), ms: fc.integer({ min: 0, max: 8000 }) }),
  },
);

let redis: RedisClient;
let keys: Keys;
let ledger: DeliveryStore;
let hooks: ReturnType<typeof ledgerStores>["hooks"];
let cleanup: () => Promise<void>;

beforeAll(() => {
  const config = testConfig({
    sinks: { out: { type: "http", url: "http://127.0.0.1:9/" } },
    sources: { src: { verify: { type: "none" }, sinks: ["out"] } },
  });
  const scratch = scratchRedis(config);
  ({ redis, keys, cleanup } = scratch);
  // Recovery looks at a row as soon as it is due: stale claims are possible at any moment.
  ({ ledger, hooks } = ledgerStores(redis, keys, { staleAfterMs: 0 }));
});
afterAll(() => cleanup());

/** One delivery's run: a fresh hook and row, the tokens handed out so far, and a clock of its own. */
async function freshRow(now: number) {
  const hook = hookFixture({ source: "src", sinks: ["out"], receivedAt: now });
  await hooks.persist(hook, { dedupTtlS: 60, staleAfterMs: 0 });
  const row = sinkRow(hook, "out");
  return { hook, row, fences: [] as number[], claims: [] as string[] };
}

const finishOf = (outcome: Finish["outcome"], now: number): Finish => {
  switch (outcome) {
    case "delivered":
      return { outcome, statusCode: 200 };
    case "retrying":
      return { outcome, nextAttemptAt: now + 1000, reason: "503", errorClass: "transient" };
    case "dead":
      return { outcome, reason: "410", errorClass: "permanent" };
    case "release":
      return { outcome };
  }
};

function pick<T>(list: readonly T[], which: Token, foreign: T): T {
  if (which === "foreign" || list.length === 0) return foreign;
  return which === "latest" ? (list.at(-1) as T) : (list[0] as T);
}

/** Whether `guard` held for the row as it was before the step. */
function guardHeld(
  guard: Guard,
  before: Record<string, string>,
  now: number,
  written: string | number,
): boolean {
  const unheld = before.st !== "sending" || Number(before.lu ?? 0) <= now;
  switch (guard) {
    case "unheld":
      return unheld;
    case "holder":
      return before.st === "sending" && before.f === String(written);
    case "stale-claim holder":
      return unheld && before.ek === written;
    case "replay":
      return before.st === "dead";
  }
}

/** Transitions observed over every run, as `from op to`. */
const seen = new Set<string>();

it("every step the real scripts take is one the state table allows, under its condition; a stale token never writes", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 10, maxLength: 60, size: "max" }), async (steps) => {
      let now = Date.now();
      const run = await freshRow(now);
      const rowKey = keys.delivery(run.row.id);
      for (const s of steps) {
        if (s.op === "advance") {
          now += s.ms;
          continue;
        }
        const before = await redis.hgetall(rowKey);
        let op: LedgerOperation;
        let written: string | number = "";
        let staleClaimed = false;
        switch (s.op) {
          case "claim": {
            op = "claim";
            const claim = await ledger.claim(
              run.row.id,
              keys.hook(run.hook.id),
              `w${run.fences.length}`,
              s.leaseMs,
              [],
              now,
            );
            if (claim.kind === "ok") run.fences.push(claim.fence);
            break;
          }
          case "finish": {
            op = `finish:${s.outcome}`;
            const fence = pick(run.fences, s.token, 1_000_000);
            written = fence;
            await ledger.finish(run.row, { fence }, finishOf(s.outcome, now), now);
            break;
          }
          case "revive": {
            op = "revive";
            const current = await ledger.get(run.row.id);
            if (current) await ledger.revive(current, newId("rp", now) as ReplayId, now, now);
            break;
          }
          case "stale-claim": {
            op = "stale-claim";
            const claimToken = `rc${run.claims.length}`;
            const claim = await ledger.claimStale(run.row.id, claimToken, 30_000, now);
            staleClaimed = claim.kind === "claimed";
            if (claim.kind === "claimed") {
              run.claims.push(claimToken);
              if (s.release) await ledger.releaseStale(run.row.id, claimToken, undefined, now);
            }
            break;
          }
          case "reconcile": {
            op = "reconcile";
            const claimToken = pick(run.claims, s.token, "rc-never");
            written = claimToken;
            const dead = { outcome: "dead", reason: "unroutable", errorClass: "permanent" } as const;
            await ledger.finish(run.row, { staleClaim: claimToken }, dead, now);
            break;
          }
        }
        const after = await redis.hgetall(rowKey);
        const from = before.st as DeliveryState;
        const to = after.st as DeliveryState;
        // A stale claim changes no state; it only takes its enqueue token (and a release gives it back).
        const changed =
          op === "stale-claim" ? staleClaimed : JSON.stringify(after) !== JSON.stringify(before);
        if (!changed) continue;
        seen.add(`${from} ${op} ${to}`);
        const context = `${from} --${op}--> ${to} (written ${written}, before ${JSON.stringify(before)}, now ${now})`;
        expect(allows(from, op, to), `not in the table: ${context}`).toBe(true);
        const guards = transitionsOf(from, op)
          .filter((t) => t.to === to)
          .map((t) => t.guard);
        expect(
          guards.some((g) => guardHeld(g, before, now, written)),
          `guard did not hold: ${context}`,
        ).toBe(true);
        // Fencing tokens only ever grow, so an old holder's token never becomes valid again.
        expect(Number(after.f ?? 0)).toBeGreaterThanOrEqual(Number(before.f ?? 0));
      }
    }),
    runs(100),
  );
  // The runs reached every transition of the table, so each was checked at least once.
  const unseen = DELIVERY_TRANSITIONS.map((t) => `${t.from} ${t.op} ${t.to}`).filter((t) => !seen.has(t));
  expect(unseen).toEqual([]);
}, 120_000);

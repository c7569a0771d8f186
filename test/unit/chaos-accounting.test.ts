// The chaos suite's accounting, on made-up runs: a harness that miscounted would pass a run that lost
// hooks, so what it calls delivered, duplicate, dead and lost is pinned down here without any process.
import { describe, expect, it } from "vitest";
import { Arrivals } from "../support/chaos/arrivals.ts";
import { type DeliveryView, type Expectation, drain } from "../support/chaos/drain.ts";
import { formatSenders, formatTable, rowOf } from "../support/chaos/report.ts";
import { SteadySender, type Try } from "../support/chaos/traffic.ts";

function expectation(
  accepted: Record<string, string>,
  arrived: [key: string, recordId: string][],
  ledger: Record<string, DeliveryView>,
): Expectation {
  const arrivals = new Arrivals();
  for (const [key, id] of arrived) arrivals.add(key, id);
  return {
    label: "dest",
    accepted: new Map(Object.entries(accepted)),
    arrivals,
    view: async (key) => ledger[key] ?? { state: "missing" },
  };
}

describe("chaos accounting", () => {
  it("counts delivered once, extra arrivals as duplicates, arrivals never accepted apart", async () => {
    const e = expectation(
      { a: "hk_a", b: "hk_b" },
      [
        ["a", "hk_a"],
        ["a", "hk_a"],
        ["b", "hk_b"],
        ["x", "hk_x"],
      ],
      {},
    );
    const drained = await drain([e], { deadlineMs: 0, pollMs: 1 });
    expect(drained.drained).toBe(true);
    expect(rowOf(e, drained)).toEqual({
      destination: "dest",
      accepted: 2,
      delivered: 2,
      duplicates: 1,
      dead: 0,
      lost: 0,
      unaccepted: 1,
      severalRecords: 0,
    });
  });

  it("an accepted item never received is dead when the ledger says so, else lost, even if the ledger says delivered", async () => {
    const e = expectation({ a: "hk_a", b: "hk_b", c: "hk_c", d: "hk_d" }, [["a", "hk_a"]], {
      b: { state: "dead", error_class: "permanent", last_error: "HTTP 400" },
      c: { state: "delivered", attempts: 1 },
      d: { state: "retrying", attempts: 3 },
    });
    const drained = await drain([e], { deadlineMs: 0, pollMs: 1 });
    expect(drained.drained).toBe(false);
    expect([...drained.dead.get("dest")!.keys()]).toEqual(["b"]);
    expect([...drained.outstanding.get("dest")!.keys()].sort()).toEqual(["c", "d"]);
    const row = rowOf(e, drained);
    expect(row).toMatchObject({ accepted: 4, delivered: 1, dead: 1, lost: 2 });
    expect(formatTable([row])).toMatch(/^destination .*lost.*\n-+.*\ndest +4 +1 +0 .* 1 +2 +0$/);
  });

  it("an item arriving under two records is a duplicate and a dedup miss", async () => {
    const e = expectation(
      { a: "hk_1" },
      [
        ["a", "hk_1"],
        ["a", "hk_2"],
      ],
      {},
    );
    expect(rowOf(e, await drain([e], { deadlineMs: 0 }))).toMatchObject({
      delivered: 1,
      duplicates: 1,
      severalRecords: 1,
    });
  });

  it("waits for a late arrival until the deadline", async () => {
    const e = expectation({ a: "hk_a" }, [], { a: { state: "delivered" } });
    setTimeout(() => e.arrivals.add("a", "hk_a"), 50);
    const drained = await drain([e], { deadlineMs: 5000, pollMs: 10 });
    expect(drained.drained).toBe(true);
    expect(rowOf(e, drained).lost).toBe(0);
  });

  it("a sender counts an item as accepted only once answered 2xx; an item refused at every try is never accepted", async () => {
    // Per item, the answers its tries get: 503 twice then 202 (a failover), always 503, 202 at once.
    const script: Record<string, Try[]> = {
      "s-1": [refused503, refused503, { ok: true }],
      "s-2": [refused503, refused503, refused503],
      "s-3": [{ ok: true }],
    };
    let stopped: Promise<void> | undefined;
    const sender = new SteadySender(
      "s",
      { ratePerS: 1000, maxTries: 3, retryDelayMs: 1, maxInFlight: 3, requestTimeoutMs: 1000 },
      async (seq) => {
        // The third item stops the ticks (launched in one tick, none has finished: a 4th is skipped).
        if (seq === "s-3") stopped ??= sender.stop();
        return script[seq]!.shift()!;
      },
    );
    sender.start();
    while (stopped === undefined) await new Promise((r) => setTimeout(r, 1));
    await stopped;
    expect(sender.started).toBe(3);
    expect({ accepted: sender.acceptedItems, afterRefusals: sender.acceptedAfterRefusal }).toEqual({
      accepted: 2,
      afterRefusals: 1,
    });
    expect(sender.givenUp).toEqual(["s-2"]);
    expect(sender.refusals.get("503")).toBe(5);
    expect(formatSenders(new Map([["inbound", sender]]))).toMatch(/\ninbound +3 +2 +1 +1 +5 +5$/);
  });
});

const refused503: Try = { ok: false, reason: "503", retry: true };

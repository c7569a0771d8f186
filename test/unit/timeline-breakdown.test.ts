// bench:timeline's tail breakdown (bench/scenarios/timeline/breakdown.ts): pauses are laid over a hook's
// wait exactly, a stall is split into the process's own work and its wait for a core, and the slowest 1%
// are told apart from the rest stage by stage.
import { expect, it } from "vitest";
import { type Stamps, overlapMs, tailBreakdown } from "../../bench/scenarios/timeline/breakdown.ts";

it("counts only the part of each pause inside the window", () => {
  const pauses = [
    { from: 0, to: 10 },
    { from: 20, to: 30 },
    { from: 40, to: 45 },
  ];
  expect(overlapMs(pauses, 5, 25)).toBe(10); // 5 of the first, 5 of the second
  expect(overlapMs(pauses, 10, 20)).toBe(0);
  expect(overlapMs(pauses, 0, 100)).toBe(25);
  expect(overlapMs([], 0, 100)).toBe(0);
});

it("puts the slowest 1% beside every hook, and their wait under the worker's stalls", () => {
  // 99 hooks of 10 ms (picked up after 5), one of 60 whose pick-up waited 55 ms under a 40 ms stall.
  const hooks: Stamps[] = Array.from({ length: 100 }, (_, i) => {
    const sent = i * 1000;
    const slow = i === 50;
    return { sent, "202": sent + 2, picked_up: sent + (slow ? 55 : 5), arrived: sent + (slow ? 60 : 10) };
  });
  const tail = tailBreakdown(
    hooks,
    ["sent", "202", "picked_up", "arrived"],
    [{ role: "worker", stampsPauses: true, gc: [], stalls: [{ from: 50_010, to: 50_050, ran: 0.25 }] }],
  );
  expect(tail.slow).toBe(1);
  expect(tail.slowMean.get("202 → picked_up")).toBe(53);
  expect(tail.slowMean.get("sent → arrived")).toBe(60);
  expect(tail.slowMean.get("  under worker loop stalls (≥3 ms late)")).toBe(40);
  expect(tail.slowMean.get("    of which worker was running")).toBe(10); // a quarter of it on a core
  expect(tail.slowMean.has("  under web loop stalls (≥3 ms late)")).toBe(false); // no web process stamped
  const pickUp = tail.rows.find((r) => r["where the time went"] === "202 → picked_up")!;
  expect(pickUp["all: p50 ms"]).toBe("3.00");
  expect(pickUp["share of their wait"]).toBe("88%");
});

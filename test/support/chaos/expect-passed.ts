// What every short chaos test demands of its run, whatever Redis it ran on: each fault it names was
// injected without error, each destination saw real traffic and lost nothing accepted, the drain
// completed and no delivery arrived with a bad signature. The report goes with every failure.
import { expect } from "vitest";
import type { ChaosResult } from "./scenario.ts";

export function expectChaosPassed(result: ChaosResult, faults: readonly string[], report: string): void {
  expect(result.injections.map((i) => i.fault).sort(), report).toEqual([...faults].sort());
  expect(
    result.injections.filter((i) => i.error !== undefined),
    report,
  ).toEqual([]);
  for (const row of result.rows) {
    expect(row.accepted, `${row.destination}: too little traffic\n${report}`).toBeGreaterThan(100);
    expect(row.lost, `${row.destination}: lost\n${report}`).toBe(0);
  }
  expect(result.drained.drained, report).toBe(true);
  expect(result.badSignatures, report).toBe(0);
}

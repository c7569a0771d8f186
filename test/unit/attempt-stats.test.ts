// The endpoint health arithmetic: every duration lands in the bin whose bound covers it, percentiles are
// read off the bins as their upper bound (never below the true value, at most ~41% above), and empty
// windows say null rather than 0.
import { expect, it } from "vitest";
import {
  DURATION_BINS,
  addBucket,
  binUpperMs,
  durationBin,
  emptyTally,
  windowStats,
} from "../../src/domain/attempt-stats.ts";

it("puts each duration in the first bin whose bound covers it", () => {
  for (const ms of [0, 1, 2, 3, 5, 17, 250, 999, 15_000, 600_000]) {
    const bin = durationBin(ms);
    expect(binUpperMs(bin) * 1.01 + 1, `${ms} ms`).toBeGreaterThanOrEqual(ms);
    if (bin > 0) expect(binUpperMs(bin - 1), `${ms} ms`).toBeLessThan(ms);
  }
  expect(durationBin(1e12)).toBe(DURATION_BINS - 1);
});

it("reads p50 and p99 off the bins, and says null for an empty window", () => {
  const tally = emptyTally();
  const fields: Record<string, string> = { n: "100", ok: "75" };
  fields[`d${durationBin(10)}`] = "98";
  fields[`d${durationBin(2000)}`] = "2";
  addBucket(tally, fields);
  const stats = windowStats(tally);
  expect(stats).toMatchObject({ attempts: 100, successes: 75, success_rate: 0.75 });
  expect(stats.p50_ms).toBeGreaterThanOrEqual(10);
  expect(stats.p50_ms).toBeLessThanOrEqual(15);
  expect(stats.p99_ms).toBeGreaterThanOrEqual(2000);
  expect(stats.p99_ms).toBeLessThanOrEqual(2900);
  expect(windowStats(emptyTally())).toEqual({
    attempts: 0,
    successes: 0,
    success_rate: null,
    p50_ms: null,
    p99_ms: null,
  });
});

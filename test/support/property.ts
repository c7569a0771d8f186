// How property tests run: a fixed seed (FC_SEED overrides it, to replay a failure fast-check reported)
// and a run budget per property (FC_RUNS overrides it).
import type { Parameters } from "fast-check";

export const SEED = Number(process.env.FC_SEED ?? 20_261_201);

export function runs<T>(numRuns: number): Parameters<T> {
  return { seed: SEED, numRuns: Number(process.env.FC_RUNS ?? numRuns) };
}

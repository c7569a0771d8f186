// An endpoint's health as numbers: attempts, successes and a duration histogram summed over a window,
// and the percentiles read off that histogram. Pure arithmetic; the per-minute and per-hour buckets
// that feed it live in Redis (src/store/endpoint-stats.ts).

/** Histogram bins of attempt duration: bin i holds durations up to binUpperMs(i), half-powers of two. */
export const DURATION_BINS = 41;

/** The bin of a duration in ms: the smallest i with ms ≤ binUpperMs(i) (the last bin takes the rest). */
export function durationBin(ms: number): number {
  if (!(ms > 1)) return 0;
  let bin = Math.min(DURATION_BINS - 1, Math.ceil(2 * Math.log2(ms)));
  // The bounds are rounded to whole ms: step down while the bin below still covers `ms`.
  while (bin > 0 && binUpperMs(bin - 1) >= ms) bin--;
  return bin;
}

/** The largest duration bin `i` holds, in ms (rounded): 1, 1, 2, 3, 4, 6, 8, 11, 16, … */
export function binUpperMs(i: number): number {
  return Math.round(2 ** (i / 2));
}

/** Counts summed over a window. */
export interface AttemptTally {
  attempts: number;
  successes: number;
  /** Per duration bin, the attempts that took that long. */
  readonly bins: number[];
}

export function emptyTally(): AttemptTally {
  return { attempts: 0, successes: 0, bins: new Array<number>(DURATION_BINS).fill(0) };
}

/** Add one stored bucket (fields n, ok, d<bin>) to `tally`. */
export function addBucket(tally: AttemptTally, fields: Readonly<Record<string, string>>): void {
  tally.attempts += Number(fields.n ?? 0);
  tally.successes += Number(fields.ok ?? 0);
  for (const [name, value] of Object.entries(fields)) {
    if (!name.startsWith("d")) continue;
    const bin = Number(name.slice(1));
    if (Number.isInteger(bin) && bin >= 0 && bin < DURATION_BINS)
      tally.bins[bin] = (tally.bins[bin] ?? 0) + Number(value);
  }
}

/**
 * The duration at quantile `q` (0–1) of a tally: the upper bound of the bin that holds it, so at most
 * ~41% above the true value. Undefined when the tally has no attempts.
 */
export function quantileMs(tally: AttemptTally, q: number): number | undefined {
  const total = tally.bins.reduce((a, b) => a + b, 0);
  if (total === 0) return undefined;
  const rank = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (let i = 0; i < tally.bins.length; i++) {
    seen += tally.bins[i] ?? 0;
    if (seen >= rank) return binUpperMs(i);
  }
  return binUpperMs(DURATION_BINS - 1);
}

/** A window's summary, as GET /v1/endpoints/:id/stats shows it. */
export interface WindowStats {
  readonly attempts: number;
  readonly successes: number;
  /** successes / attempts, or null with no attempts. */
  readonly success_rate: number | null;
  readonly p50_ms: number | null;
  readonly p99_ms: number | null;
}

export function windowStats(tally: AttemptTally): WindowStats {
  return {
    attempts: tally.attempts,
    successes: tally.successes,
    success_rate: tally.attempts === 0 ? null : tally.successes / tally.attempts,
    p50_ms: quantileMs(tally, 0.5) ?? null,
    p99_ms: quantileMs(tally, 0.99) ?? null,
  };
}

// Replay protection shared by the timestamped schemes: a signed timestamp within ±tolerance of now.
// Both directions, so a clock-skewed or forged future timestamp cannot stretch a capture's lifetime.
import { OK, fail, type VerifyOutcome } from "./outcome.ts";

/** Whole seconds since the epoch; 12 digits reaches the year 33658, so longer is noise. */
const SECONDS = /^\d{1,12}$/;

/** Check a Unix-seconds timestamp string against `nowMs` with `toleranceS` either side. */
export function checkTimestamp(raw: string, nowMs: number, toleranceS: number): VerifyOutcome {
  if (!SECONDS.test(raw)) return fail("non-numeric timestamp");
  const skewMs = nowMs - Number(raw) * 1000;
  // Written so that a NaN tolerance or clock fails closed instead of waving every timestamp through.
  if (Math.abs(skewMs) <= toleranceS * 1000) return OK;
  return fail(
    skewMs > 0 ? "timestamp outside tolerance (too old)" : "timestamp outside tolerance (in the future)",
  );
}

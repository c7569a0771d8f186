// A delivery's AbortSignal must end its wait promptly, while the work it started (a publish waiting for its
// confirm, a connection being opened) carries on for whoever comes next.
import { type AttemptAbort, onAbort } from "../attempt-abort.ts";
import type { FailedResult } from "./errors.ts";
import { transientFailure } from "./errors.ts";

/**
 * `work`'s result, or a transient "aborted while …" failure as soon as `signal` aborts (heard on the
 * attempt's `abort` emitter when the caller has it: attempt-abort.ts).
 */
export function raceAbort<T>(
  work: Promise<T>,
  signal: AbortSignal,
  during: string,
  abort?: AttemptAbort,
): Promise<T | FailedResult> {
  if (signal.aborted) return Promise.resolve(abortedResult(during));
  return new Promise<T | FailedResult>((resolve, reject) => {
    const stopListening = onAbort(signal, () => resolve(abortedResult(during)), abort);
    work.then(
      (value) => {
        stopListening();
        resolve(value);
      },
      (err: unknown) => {
        stopListening();
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

/** The result of a delivery whose caller gave up. */
export function abortedResult(during: string): FailedResult {
  return transientFailure(`aborted while ${during}`);
}

// Hearing an attempt's abort without a listener on its AbortSignal. Sinks are given an AbortSignal
// (plugins rely on it), but every way of listening on one per delivery cost CPU out of proportion:
// undici given a fresh AbortSignal per request took about 1.4× the CPU of a request without one (an
// EventTarget listener added and removed), and so did tying an emitter to the signal (a Map, a
// WeakMap or a property on it: the signal's identity hash or shape changes). So an attempt also makes a
// plain emitter, aborted together with its signal, and hands both to the sink: the built-in sinks
// listen on the emitter (undici takes one as a request's signal); a plugin may use either.
// `npm run bench:abort-signal` measures the variants side by side.
import { EventEmitter } from "node:events";

/** An attempt's abort as an emitter: `aborted` and `reason` as on an AbortSignal, and an `abort` event. */
export class AttemptAbort extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;

  /** Abort (once): set `aborted` and `reason`, then tell the listeners. */
  abort(reason: Error): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.emit("abort");
  }
}

/**
 * Call `listener` once when the attempt aborts (not if it already has): on `abort` when the caller has
 * it, else on `signal`. Returns what stops listening.
 */
export function onAbort(signal: AbortSignal, listener: () => void, abort?: AttemptAbort): () => void {
  if (abort) {
    abort.once("abort", listener);
    return () => void abort.removeListener("abort", listener);
  }
  signal.addEventListener("abort", listener, { once: true });
  return () => signal.removeEventListener("abort", listener);
}

// Hearing an attempt's abort without a listener on its AbortSignal. Sinks are given an AbortSignal
// (plugins rely on it), but adding and removing an EventTarget listener once per attempt cost about
// 20 µs of CPU on Node 20: undici given a fresh signal per request took 72 µs a request against 53
// without one, more than everything else Switchyard adds to an HTTP delivery in the worker. An attempt's
// controller made here also tells a plain EventEmitter when it aborts; `onAbort` and `requestSignal`
// use that emitter for such a signal, and the signal itself for any other (a test's, a plugin's own),
// so a sink hears every abort either way.
import { EventEmitter } from "node:events";

/** What undici also takes as a request's signal: an emitter with `aborted` and `reason`. */
export class AbortEmitter extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;
}

const EMITTER = Symbol("switchyard.attemptAbortEmitter");
/** An attempt's signal carries its emitter once one is asked for (null until then). */
type AttemptSignal = AbortSignal & { [EMITTER]?: AbortEmitter | null };

/** A controller for one attempt. Abort it only with `abortAttempt`, so light listeners hear it too. */
export function attemptController(): AbortController {
  const controller = new AbortController();
  (controller.signal as AttemptSignal)[EMITTER] = null;
  return controller;
}

/** Abort an attempt's controller, and tell its emitter's listeners. */
export function abortAttempt(controller: AbortController, reason: Error): void {
  controller.abort(reason);
  const emitter = (controller.signal as AttemptSignal)[EMITTER];
  if (emitter && !emitter.aborted) {
    emitter.aborted = true;
    emitter.reason = reason;
    emitter.emit("abort");
  }
}

/** The emitter of an attempt's signal (made on first use), or undefined for any other signal. */
function emitterOf(signal: AbortSignal): AbortEmitter | undefined {
  const attempt = signal as AttemptSignal;
  if (!(EMITTER in attempt)) return undefined;
  let emitter = attempt[EMITTER];
  if (!emitter) {
    emitter = new AbortEmitter();
    if (signal.aborted) {
      emitter.aborted = true;
      emitter.reason = signal.reason;
    }
    attempt[EMITTER] = emitter;
  }
  return emitter;
}

/** What to hand undici as a request's `signal` for `signal`: its attempt's emitter when it has one. */
export function requestSignal(signal: AbortSignal): AbortSignal | AbortEmitter {
  return emitterOf(signal) ?? signal;
}

/** Call `listener` once when `signal` aborts (not if it already has); returns what stops listening. */
export function onAbort(signal: AbortSignal, listener: () => void): () => void {
  const emitter = emitterOf(signal);
  if (emitter) {
    emitter.once("abort", listener);
    return () => void emitter.removeListener("abort", listener);
  }
  signal.addEventListener("abort", listener, { once: true });
  return () => signal.removeEventListener("abort", listener);
}

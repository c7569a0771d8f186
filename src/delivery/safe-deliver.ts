// A sink is user-extensible code: it may throw, reject, hang or return nonsense. Every one of those is
// a transient failure of the attempt, never a crash of the worker.
import { type DeliveryResult, boundReason, cancelled, transient } from "../domain/error-class.ts";
import type { Delivery } from "../domain/hook.ts";
import { AttemptAbort } from "../sinks/attempt-abort.ts";
import type { Sink } from "../sinks/sink.ts";

function isDeliveryResult(value: unknown): value is DeliveryResult {
  if (typeof value !== "object" || value === null || !("ok" in value)) return false;
  if (value.ok === true) return true;
  if (value.ok !== false || !("failure" in value)) return false;
  const failure = value.failure;
  return (
    typeof failure === "object" &&
    failure !== null &&
    "kind" in failure &&
    (failure.kind === "permanent" || failure.kind === "retry_after" || failure.kind === "transient")
  );
}

/** Something that may cancel an attempt, saying why: a shutdown, a lease that lapses. */
export interface Cancellation {
  /** Register `cancel`; returns the function that unregisters it. */
  track(cancel: (why: string) => void): () => void;
}

const SHUTTING_DOWN = "worker shutting down";

/**
 * The attempts running in one worker pool, so a forced shutdown can abort them all. A plain set of
 * callbacks: cheaper per attempt than a listener on a shared AbortSignal.
 */
export class InFlightAttempts implements Cancellation {
  private readonly active = new Set<(why: string) => void>();
  private stopped = false;

  track(cancel: (why: string) => void): () => void {
    if (this.stopped) cancel(SHUTTING_DOWN);
    this.active.add(cancel);
    return () => this.active.delete(cancel);
  }

  cancelAll(): void {
    this.stopped = true;
    for (const cancel of this.active) cancel(SHUTTING_DOWN);
  }
}

/**
 * Run one attempt, bounded by `timeoutMs`; the sink's signal aborts when the time is up, or when a
 * cancellation fires: `inFlight` (the worker is shutting down and hands the job back) or `lease` (the
 * attempt's lease could not be renewed, so it must end before another worker may take the delivery).
 */
export function safeDeliver(
  sink: Sink,
  delivery: Delivery,
  timeoutMs: number,
  inFlight?: Cancellation,
  lease?: Cancellation,
): Promise<DeliveryResult> {
  return safeAttempt((signal, abort) => sink.deliver(delivery, signal, abort), timeoutMs, inFlight, lease);
}

/** `safeDeliver` for any attempt function (an outbound endpoint's request, say). */
export async function safeAttempt(
  attempt: (signal: AbortSignal, abort: AttemptAbort) => unknown,
  timeoutMs: number,
  inFlight?: Cancellation,
  lease?: Cancellation,
): Promise<DeliveryResult> {
  // The attempt's abort, twice: the signal sinks are promised, and the emitter they listen on cheaply.
  const controller = new AbortController();
  const abort = new AttemptAbort();
  const abortBoth = (reason: Error): void => {
    controller.abort(reason);
    abort.abort(reason);
  };
  let timer: NodeJS.Timeout | undefined;
  let untrackShutdown: (() => void) | undefined;
  let untrackLease: (() => void) | undefined;
  const stopped = new Promise<DeliveryResult>((resolve) => {
    timer = setTimeout(() => {
      abortBoth(new Error("attempt timed out"));
      resolve(transient(`attempt timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    const cancel = (why: string): void => {
      abortBoth(new Error(why));
      resolve(cancelled(`attempt cancelled: ${why}`));
    };
    untrackShutdown = inFlight?.track(cancel);
    untrackLease = lease?.track(cancel);
  });
  try {
    let answer: unknown;
    try {
      answer = attempt(controller.signal, abort);
    } catch (err) {
      answer = Promise.reject(err); // a synchronous throw is a failed attempt like any other
    }
    const settled = Promise.resolve(answer).then(
      (value): DeliveryResult =>
        isDeliveryResult(value) ? value : transient(`sink returned an unexpected value: ${typeof value}`),
      (err: unknown): DeliveryResult =>
        transient(boundReason(`sink threw: ${err instanceof Error ? err.message : String(err)}`)),
    );
    return await Promise.race([settled, stopped]);
  } finally {
    clearTimeout(timer);
    untrackShutdown?.();
    untrackLease?.();
  }
}

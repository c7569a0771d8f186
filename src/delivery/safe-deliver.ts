// A sink is user-extensible code: it may throw, reject, hang or return nonsense. Every one of those is
// a transient failure of the attempt, never a crash of the worker.
import { type DeliveryResult, boundReason, cancelled, transient } from "../domain/error-class.ts";
import type { Delivery } from "../domain/hook.ts";
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

/**
 * The attempts running in one worker pool, so a forced shutdown can abort them all. A plain set of
 * callbacks: cheaper per attempt than a listener on a shared AbortSignal.
 */
export class InFlightAttempts {
  private readonly active = new Set<() => void>();
  private stopped = false;

  /** Register `cancel`; returns the function that unregisters it. */
  track(cancel: () => void): () => void {
    if (this.stopped) cancel();
    this.active.add(cancel);
    return () => this.active.delete(cancel);
  }

  cancelAll(): void {
    this.stopped = true;
    for (const cancel of this.active) cancel();
  }
}

/**
 * Run one attempt, bounded by `timeoutMs`; the sink's signal aborts when the time is up, or when
 * `inFlight` is cancelled (the worker is shutting down and hands the job back).
 */
export function safeDeliver(
  sink: Sink,
  delivery: Delivery,
  timeoutMs: number,
  inFlight?: InFlightAttempts,
): Promise<DeliveryResult> {
  return safeAttempt((signal) => sink.deliver(delivery, signal), timeoutMs, inFlight);
}

/** `safeDeliver` for any attempt function (an outbound endpoint's request, say). */
export async function safeAttempt(
  attempt: (signal: AbortSignal) => unknown,
  timeoutMs: number,
  inFlight?: InFlightAttempts,
): Promise<DeliveryResult> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let untrack: (() => void) | undefined;
  const stopped = new Promise<DeliveryResult>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error("attempt timed out"));
      resolve(transient(`attempt timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    untrack = inFlight?.track(() => {
      controller.abort(new Error("worker shutting down"));
      resolve(cancelled("attempt cancelled: worker shutting down"));
    });
  });
  try {
    let answer: unknown;
    try {
      answer = attempt(controller.signal);
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
    untrack?.();
  }
}

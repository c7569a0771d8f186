// The tracing port: what ingest routes and the attempt runner ask of tracing, and nothing more, so the
// OpenTelemetry SDK stays behind one door (otel-tracing.ts, loaded by start-tracing.ts only when an
// exporter is configured). Off, it is a constant whose methods return undefined: no SDK module is
// loaded, no span object exists, nothing is stored.
import type { Target } from "../domain/delivery.ts";

/** The request headers a server span reads (a fetch `Headers` is one). */
export interface IncomingHeaders {
  get(name: string): string | null;
}

/** The span of one HTTP request that accepts work (an ingest, a publish). */
export interface RequestSpan {
  /** W3C traceparent of this span: stored with the hook or event, so its deliveries join the trace. */
  readonly traceparent: string;
  /** End the span with the answer's status; attributes are Switchyard's own (`hook_id`, `outcome`, ...). */
  end(status: number, attributes?: Readonly<Record<string, string | undefined>>): void;
}

/** What becomes of the delivery after an attempt. */
export type AttemptNext = "delivered" | "retrying" | "dead" | "released";

/** The span of one delivery attempt. */
export interface AttemptSpan {
  /** W3C traceparent of this span: what the destination receives. */
  readonly traceparent: string;
  /** Hex trace id, for the attempt's log lines. */
  readonly traceId: string;
  /**
   * `result`: `ok`, an error class (`transient`, `throttled`, `permanent`), `cancelled` or `error`;
   * `statusCode`: the destination's HTTP status, when it answered with one.
   */
  end(result: string, next: AttemptNext, statusCode?: number): void;
}

export interface Tracing {
  readonly enabled: boolean;
  /** A server span for `route`, continuing the request's `traceparent` if it carries a valid one. */
  startRequest(route: string, headers: IncomingHeaders): RequestSpan | undefined;
  /**
   * A span for one attempt at `target`, child of `parent` (the stored traceparent of the hook or event;
   * a new trace when absent). `coordinates` are the attempt's log fields (ids and names, never a body or
   * secret): each becomes a `switchyard.<name>` attribute.
   */
  startAttempt(
    target: Target,
    parent: string | undefined,
    coordinates: Readonly<Record<string, unknown>>,
  ): AttemptSpan | undefined;
  /** Export what is buffered and stop (bounded). */
  shutdown(): Promise<void>;
}

export const TRACING_OFF: Tracing = {
  enabled: false,
  startRequest: () => undefined,
  startAttempt: () => undefined,
  shutdown: async () => undefined,
};

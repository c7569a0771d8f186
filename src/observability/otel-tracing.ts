// The tracing port on the OpenTelemetry SDK. Loaded only by startTracing, and only when an exporter is
// configured. The provider is this gateway's own, never registered as the global one, and every span is
// started from an explicit parent (an incoming or stored traceparent): no context manager runs on the
// hot path, and two gateways in one process (tests) keep their traces apart.
import {
  type Attributes,
  type Span,
  type SpanContext,
  DiagLogLevel,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  diag,
  trace,
} from "@opentelemetry/api";
import { parseTraceParent } from "@opentelemetry/core";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  type SpanExporter,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from "@opentelemetry/sdk-trace";
import type { Target } from "../domain/delivery.ts";
import type { Logger } from "./logger.ts";
import type { SamplerSettings, TracingSettings } from "./otel-env.ts";
import type { AttemptSpan, IncomingHeaders, RequestSpan, Tracing } from "./tracing.ts";

/** A collector that does not answer must not hold a shutdown past the platform's grace. */
const SHUTDOWN_MS = 3000;

function samplerOf(s: SamplerSettings): Sampler {
  const root =
    s.root === "always_on"
      ? new AlwaysOnSampler()
      : s.root === "always_off"
        ? new AlwaysOffSampler()
        : new TraceIdRatioBasedSampler(s.ratio);
  return s.parentBased ? new ParentBasedSampler({ root }) : root;
}

/** Only the exporter of the configured protocol is loaded. */
async function exporterOf(s: TracingSettings): Promise<SpanExporter> {
  const config = { url: s.url, headers: { ...s.headers }, timeoutMillis: s.timeoutMs };
  if (s.protocol === "http/json") {
    const { OTLPTraceExporter } = await import("@opentelemetry/exporter-trace-otlp-http");
    return new OTLPTraceExporter(config);
  }
  const { OTLPTraceExporter } = await import("@opentelemetry/exporter-trace-otlp-proto");
  return new OTLPTraceExporter(config);
}

/** `00-<trace id>-<span id>-<flags>`: the W3C traceparent of a span context. */
function traceparentOf(sc: SpanContext): string {
  return `00-${sc.traceId}-${sc.spanId}-${(sc.traceFlags & 0xff).toString(16).padStart(2, "0")}`;
}

/** The context a span continues: a valid traceparent, or a new trace. */
function parentContext(traceparent: string | null | undefined) {
  const sc = traceparent ? parseTraceParent(traceparent) : null;
  return sc ? trace.setSpanContext(ROOT_CONTEXT, { ...sc, isRemote: true }) : ROOT_CONTEXT;
}

/** `switchyard.<key>` attributes of the defined values among `fields`. */
function switchyardAttributes(fields: Readonly<Record<string, unknown>>): Attributes {
  const out: Attributes = {};
  for (const [key, v] of Object.entries(fields))
    if (typeof v === "string" || typeof v === "number") out[`switchyard.${key}`] = v;
  return out;
}

function onceEnded<T extends unknown[]>(end: (...args: T) => void): (...args: T) => void {
  let ended = false;
  return (...args) => {
    if (ended) return;
    ended = true;
    end(...args);
  };
}

function requestSpan(span: Span, route: string): RequestSpan {
  return {
    traceparent: traceparentOf(span.spanContext()),
    end: onceEnded((status, attributes = {}) => {
      span.setAttributes({ "http.response.status_code": status, ...switchyardAttributes(attributes) });
      // A server span is in error only for a 5xx: a 4xx is the client's mistake, answered correctly.
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR, message: `${route}: ${status}` });
      span.end();
    }),
  };
}

function attemptSpan(span: Span): AttemptSpan {
  const sc = span.spanContext();
  return {
    traceparent: traceparentOf(sc),
    traceId: sc.traceId,
    end: onceEnded((result: string, next: string, statusCode?: number) => {
      span.setAttributes({ "switchyard.result": result, "switchyard.next": next });
      if (statusCode !== undefined) span.setAttribute("http.response.status_code", statusCode);
      // The reason stays out: it may quote the destination's answer.
      if (result !== "ok") span.setStatus({ code: SpanStatusCode.ERROR, message: result });
      span.end();
    }),
  };
}

export async function createOtelTracing(settings: TracingSettings, logger: Logger): Promise<Tracing> {
  // Export failures reach the SDK's diagnostic logger: route them to ours, warnings and up.
  diag.setLogger(
    {
      error: (message) => logger.warn(`tracing: ${message}`),
      warn: (message) => logger.warn(`tracing: ${message}`),
      info: () => undefined,
      debug: () => undefined,
      verbose: () => undefined,
    },
    { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true },
  );
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      ...settings.resourceAttributes,
      "service.name": settings.serviceName,
    }),
    sampler: samplerOf(settings.sampler),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: await exporterOf(settings),
        scheduledDelayMillis: settings.scheduleDelayMs,
      }),
    ],
  });
  const tracer = provider.getTracer("switchyard");

  return {
    enabled: true,
    startRequest(route: string, headers: IncomingHeaders): RequestSpan {
      const [method = "POST", path = route] = route.split(" ");
      const span = tracer.startSpan(
        route,
        { kind: SpanKind.SERVER, attributes: { "http.request.method": method, "http.route": path } },
        parentContext(headers.get("traceparent")),
      );
      return requestSpan(span, route);
    },
    startAttempt(target: Target, parent, coordinates): AttemptSpan {
      const span = tracer.startSpan(
        target.kind === "sink" ? `deliver ${target.name}` : "deliver endpoint",
        { kind: SpanKind.CLIENT, attributes: switchyardAttributes(coordinates) },
        parentContext(parent),
      );
      return attemptSpan(span);
    },
    async shutdown(): Promise<void> {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, SHUTDOWN_MS);
      });
      await Promise.race([provider.shutdown().catch(() => undefined), late]);
      clearTimeout(timer);
    },
  };
}

// A stand-in OpenTelemetry collector for tracing tests: accepts OTLP/HTTP `POST /v1/traces` in JSON and in
// protobuf, decodes every span into one plain shape, and lets a test wait for the spans it expects.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { decodeTraceRequest } from "./otlp-protobuf.ts";

/** A span as the tracing tests read it: ids in hex, OTLP's SpanKind and status code numbers. */
export interface OtlpSpan {
  readonly traceId: string;
  readonly spanId: string;
  /** "" for a root span. */
  readonly parentSpanId: string;
  readonly name: string;
  /** OTLP SpanKind: 2 server, 3 client. */
  readonly kind: number;
  readonly attributes: Readonly<Record<string, string | number | boolean>>;
  /** 0 unset, 1 ok, 2 error. */
  readonly statusCode: number;
  /** The resource's `service.name`. */
  readonly service: string | undefined;
}

export interface OtlpReceiver {
  /** `http://127.0.0.1:<port>`: an OTEL_EXPORTER_OTLP_ENDPOINT. */
  readonly url: string;
  readonly spans: readonly OtlpSpan[];
  /** The content type of each export request received. */
  readonly contentTypes: readonly string[];
  /** Resolves with the spans once `check` holds for them; rejects after `timeoutMs`. */
  waitFor(check: (spans: readonly OtlpSpan[]) => boolean, timeoutMs?: number): Promise<readonly OtlpSpan[]>;
  close(): Promise<void>;
}

interface JsonAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
}
interface JsonKeyValue {
  key: string;
  value?: JsonAnyValue;
}
interface JsonSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: JsonKeyValue[];
  status?: { code?: number };
}
interface JsonRequest {
  resourceSpans?: {
    resource?: { attributes?: JsonKeyValue[] };
    scopeSpans?: { spans?: JsonSpan[] }[];
  }[];
}

function jsonAttributes(list: JsonKeyValue[] = []): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const { key, value = {} } of list) {
    const v =
      value.stringValue ??
      value.boolValue ??
      (value.intValue === undefined ? value.doubleValue : Number(value.intValue));
    if (v !== undefined) out[key] = v;
  }
  return out;
}

function decodeJson(body: Buffer): OtlpSpan[] {
  const req = JSON.parse(body.toString("utf8")) as JsonRequest;
  return (req.resourceSpans ?? []).flatMap((rs) => {
    const service = jsonAttributes(rs.resource?.attributes)["service.name"];
    return (rs.scopeSpans ?? []).flatMap((ss) =>
      (ss.spans ?? []).map((s) => ({
        traceId: s.traceId,
        spanId: s.spanId,
        parentSpanId: s.parentSpanId ?? "",
        name: s.name,
        kind: s.kind,
        attributes: jsonAttributes(s.attributes),
        statusCode: s.status?.code ?? 0,
        service: typeof service === "string" ? service : undefined,
      })),
    );
  });
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: OtlpSpan[] = [];
  const contentTypes: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const type = req.headers["content-type"] ?? "";
      if (req.method !== "POST" || req.url !== "/v1/traces") {
        res.writeHead(404).end();
        return;
      }
      const body = Buffer.concat(chunks);
      try {
        spans.push(...(type.includes("json") ? decodeJson(body) : decodeTraceRequest(body)));
        contentTypes.push(type);
      } catch (err) {
        res.writeHead(400).end(String(err));
        return;
      }
      // An empty ExportTraceServiceResponse, in the request's encoding.
      if (type.includes("json")) res.writeHead(200, { "content-type": "application/json" }).end("{}");
      else res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    contentTypes,
    waitFor: async (check, timeoutMs = 15_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!check(spans)) {
        if (Date.now() > deadline)
          throw new Error(
            `OTLP receiver: condition not met with ${spans.length} spans after ${timeoutMs} ms`,
          );
        await new Promise((r) => setTimeout(r, 25));
      }
      return spans;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// Decodes an OTLP/HTTP protobuf ExportTraceServiceRequest into plain spans, reading the protobuf wire
// format directly (the OpenTelemetry packages ship an encoder only). Only the fields the tracing tests
// look at are read; every other field is skipped by its wire type.
import type { OtlpSpan } from "./otlp-receiver.ts";

type Field = { readonly no: number } & (
  | { readonly wire: 0; readonly value: bigint }
  | { readonly wire: 1 | 5; readonly value: Buffer }
  | { readonly wire: 2; readonly value: Buffer }
);

function varint(buf: Buffer, at: number): [bigint, number] {
  let result = 0n;
  let shift = 0n;
  for (let i = at; i < buf.length; i++) {
    const byte = buf[i]!;
    result |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) return [result, i + 1];
    shift += 7n;
  }
  throw new Error("protobuf: truncated varint");
}

function fields(buf: Buffer): Field[] {
  const out: Field[] = [];
  let at = 0;
  while (at < buf.length) {
    const [key, next] = varint(buf, at);
    at = next;
    const no = Number(key >> 3n);
    const wire = Number(key & 7n);
    if (wire === 0) {
      const [value, after] = varint(buf, at);
      out.push({ no, wire, value });
      at = after;
    } else if (wire === 1 || wire === 5) {
      const size = wire === 1 ? 8 : 4;
      out.push({ no, wire, value: buf.subarray(at, at + size) });
      at += size;
    } else if (wire === 2) {
      const [len, after] = varint(buf, at);
      const end = after + Number(len);
      if (end > buf.length) throw new Error("protobuf: truncated field");
      out.push({ no, wire, value: buf.subarray(after, end) });
      at = end;
    } else {
      throw new Error(`protobuf: unsupported wire type ${wire}`);
    }
  }
  return out;
}

const bytesOf = (fs: Field[], no: number): Buffer[] =>
  fs.flatMap((f) => (f.no === no && f.wire === 2 ? [f.value] : []));
const first = (fs: Field[], no: number): Buffer | undefined => bytesOf(fs, no)[0];
const numberOf = (fs: Field[], no: number): number => {
  const f = fs.find((x) => x.no === no && x.wire === 0);
  return f && f.wire === 0 ? Number(f.value) : 0;
};

/** AnyValue: string 1, bool 2, int 3, double 4. */
function anyValue(buf: Buffer): string | number | boolean | undefined {
  for (const f of fields(buf)) {
    if (f.no === 1 && f.wire === 2) return f.value.toString("utf8");
    if (f.no === 2 && f.wire === 0) return f.value !== 0n;
    if (f.no === 3 && f.wire === 0) return Number(BigInt.asIntN(64, f.value));
    if (f.no === 4 && f.wire === 1) return f.value.readDoubleLE(0);
  }
  return undefined;
}

/** Repeated KeyValue { key 1, value 2 }. */
function attributes(list: Buffer[]): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const kv of list) {
    const fs = fields(kv);
    const key = first(fs, 1)?.toString("utf8");
    const value = first(fs, 2);
    const v = value ? anyValue(value) : undefined;
    if (key !== undefined && v !== undefined) out[key] = v;
  }
  return out;
}

/** ExportTraceServiceRequest → ResourceSpans (1) → Resource (1) + ScopeSpans (2) → Span (2). */
export function decodeTraceRequest(body: Buffer): OtlpSpan[] {
  const spans: OtlpSpan[] = [];
  for (const rs of bytesOf(fields(body), 1)) {
    const rsFields = fields(rs);
    const resource = first(rsFields, 1);
    const service = resource ? attributes(bytesOf(fields(resource), 1))["service.name"] : undefined;
    for (const ss of bytesOf(rsFields, 2)) {
      for (const raw of bytesOf(fields(ss), 2)) {
        const s = fields(raw);
        const status = first(s, 15);
        spans.push({
          traceId: first(s, 1)?.toString("hex") ?? "",
          spanId: first(s, 2)?.toString("hex") ?? "",
          parentSpanId: first(s, 4)?.toString("hex") ?? "",
          name: first(s, 5)?.toString("utf8") ?? "",
          kind: numberOf(s, 6),
          attributes: attributes(bytesOf(s, 9)),
          statusCode: status ? numberOf(fields(status), 3) : 0,
          service: typeof service === "string" ? service : undefined,
        });
      }
    }
  }
  return spans;
}

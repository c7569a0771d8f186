// The body an endpoint receives, and the format of endpoints stored before the format existed.
import { describe, expect, it } from "vitest";
import { outboundBody } from "../../src/domain/outbound-body.ts";
import { endpointFields, parseEndpointRecord } from "../../src/store/endpoint-record.ts";

const event = {
  type: "order.paid",
  createdAt: Date.UTC(2030, 0, 2, 3, 4, 5, 678),
  payload: Buffer.from('{"order":1,"note":"ü \\"q\\""}'),
};

describe("outboundBody", () => {
  it("wraps the payload bytes in the Standard Webhooks shape, with the event's creation time", () => {
    const body = outboundBody(event, "standard");
    expect(JSON.parse(body.toString("utf8"))).toEqual({
      type: "order.paid",
      timestamp: "2030-01-02T03:04:05.678Z",
      data: { order: 1, note: 'ü "q"' },
    });
    // The payload's bytes are spliced in unchanged, and the same event always gives the same bytes.
    expect(body.includes(event.payload)).toBe(true);
    expect(outboundBody(event, "standard").equals(body)).toBe(true);
  });

  it("sends the payload alone for a raw endpoint", () => {
    expect(outboundBody(event, "raw").equals(event.payload)).toBe(true);
    expect(outboundBody({ ...event, payload: Buffer.from("null") }, "standard").toString()).toBe(
      '{"type":"order.paid","timestamp":"2030-01-02T03:04:05.678Z","data":null}',
    );
  });
});

describe("payload_format in the endpoint record", () => {
  const stored = {
    id: "ep_00000000000000000000000000",
    url: "https://example.com/",
    event_types: '["order.*"]',
    headers: "{}",
    disabled: "0",
    version: "1",
    created_at: "1",
    updated_at: "1",
    secret: "whsec_x",
    previous_secrets: "[]",
    rev: "1",
  };

  it("reads an endpoint stored without the field (only 0.1.0 wrote one) as raw, the body its receiver got", () => {
    expect(parseEndpointRecord(stored)?.endpoint.payload_format).toBe("raw");
  });

  it("writes the field on every endpoint, standard included", () => {
    const standard = parseEndpointRecord({ ...stored, payload_format: "standard" })?.endpoint;
    expect(endpointFields(standard!).payload_format).toBe("standard");
  });

  it("round-trips raw", () => {
    const raw = parseEndpointRecord({ ...stored, payload_format: "raw" })?.endpoint;
    expect(raw?.payload_format).toBe("raw");
    expect(endpointFields(raw!).payload_format).toBe("raw");
  });
});

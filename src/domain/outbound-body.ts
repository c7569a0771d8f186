// What an endpoint receives as the body of a delivery. By default the Standard Webhooks payload shape,
// `{"type","timestamp","data"}`, so a receiver subscribed to `order.*` can tell `order.paid` from
// `order.refunded`; an endpoint that chose `payload_format: raw` gets the payload bytes alone. Built from
// the stored event only (its type, creation time and payload), so every retry signs the same bytes.

/** `standard`: the payload wrapped with its type and time. `raw`: the payload as published. */
export const PAYLOAD_FORMATS = ["standard", "raw"] as const;
export type PayloadFormat = (typeof PAYLOAD_FORMATS)[number];

/** The format of an endpoint stored before endpoints had one: the standard shape, as for a new endpoint. */
export const DEFAULT_PAYLOAD_FORMAT: PayloadFormat = "standard";

export function isPayloadFormat(value: string): value is PayloadFormat {
  return (PAYLOAD_FORMATS as readonly string[]).includes(value);
}

export interface OutboundEvent {
  readonly type: string;
  /** Milliseconds since the epoch when the event was published. */
  readonly createdAt: number;
  /** The payload's JSON bytes, as stored. */
  readonly payload: Buffer;
}

/** The bytes to sign and send for `event` in `format`. The payload is spliced in, never re-serialized. */
export function outboundBody(event: OutboundEvent, format: PayloadFormat): Buffer {
  if (format === "raw") return event.payload;
  const head = `{"type":${JSON.stringify(event.type)},"timestamp":${JSON.stringify(new Date(event.createdAt).toISOString())},"data":`;
  return Buffer.concat([Buffer.from(head, "utf8"), event.payload, Buffer.from("}", "utf8")]);
}

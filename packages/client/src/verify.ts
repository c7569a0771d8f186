// For the receiving side: check that a delivery really came from the gateway, with the endpoint's
// secret, by its Standard Webhooks signature (webhook-id, webhook-timestamp, webhook-signature), using
// the `standardwebhooks` package itself. During a secret rotation the gateway signs with both secrets,
// and a receiver may hold both too: any one of `secrets` that verifies is enough.
import { Webhook, WebhookVerificationError } from "standardwebhooks";

export { WebhookVerificationError };

/** Request headers as a fetch Request has them, or as Node's IncomingMessage does. */
export type DeliveryHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

/** A verified delivery: its id (the same on every retry: dedup by it), when it was signed, its body. */
export interface VerifiedDelivery<T> {
  readonly id: string;
  readonly timestamp: Date;
  /** The parsed body: {"type","timestamp","data"} for payload_format standard, the payload for raw. */
  readonly payload: T;
}

const SIGNATURE_HEADERS = ["webhook-id", "webhook-timestamp", "webhook-signature"] as const;

function signatureHeaders(headers: DeliveryHeaders): Record<string, string> {
  const get = (name: string): string | undefined => {
    if (headers instanceof Headers) return headers.get(name) ?? undefined;
    const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
    return typeof entry === "string" ? entry : entry?.join(", ");
  };
  return Object.fromEntries(SIGNATURE_HEADERS.map((name) => [name, get(name) ?? ""]));
}

/**
 * Verify `body` (the raw bytes or text as received: never re-serialized JSON) against the delivery's
 * headers with the endpoint's secret(s) (`whsec_…`). Throws WebhookVerificationError when no secret
 * verifies it or the timestamp is more than 5 minutes off.
 */
export function verifyDelivery<T = unknown>(
  body: string | Buffer,
  headers: DeliveryHeaders,
  secrets: string | readonly string[],
): VerifiedDelivery<T> {
  const signed = signatureHeaders(headers);
  const all = typeof secrets === "string" ? [secrets] : secrets;
  if (all.length === 0) throw new WebhookVerificationError("no secret to verify with");
  let failure: unknown;
  for (const secret of all) {
    try {
      const payload = new Webhook(secret).verify(body, signed) as T;
      return {
        id: signed["webhook-id"] ?? "",
        timestamp: new Date(Number(signed["webhook-timestamp"]) * 1000),
        payload,
      };
    } catch (err) {
      failure = err;
    }
  }
  throw failure;
}

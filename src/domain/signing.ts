// Standard Webhooks signing for everything Switchyard sends (the http sink, outbound endpoints), kept pure
// so the byte-exact format is unit-tested against the reference verifiers without a socket.
import { createHmac, randomBytes } from "node:crypto";

/** The three headers a Standard Webhooks (or Svix) verifier reads. */
export interface StandardWebhookHeaders {
  readonly "webhook-id": string;
  readonly "webhook-timestamp": string;
  readonly "webhook-signature": string;
}

const PREFIX = "whsec_";
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$/;

/**
 * The HMAC key of a `whsec_…` secret (the prefix is optional). Throws on a secret that is not base64 or
 * decodes to nothing, so a typo fails at boot rather than signing with an empty key.
 */
export function decodeSecret(secret: string): Buffer {
  const encoded = secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret;
  if (!BASE64.test(encoded)) throw new Error("webhook secret is not base64 (expected whsec_<base64>)");
  const key = Buffer.from(encoded, "base64");
  if (key.length === 0) throw new Error("webhook secret is empty");
  return key;
}

/**
 * Sign `body` for message `id` at `timestampS` (Unix seconds). One `v1,` signature per secret,
 * space-separated, so a receiver that knows any one live secret accepts it during a rotation.
 *
 * The HMAC covers the exact body bytes. Note that the JavaScript `standardwebhooks`/`svix` verifiers
 * decode the body as UTF-8 before hashing, so they can only check bodies that are valid UTF-8.
 */
export function signStandardWebhook(opts: {
  id: string;
  timestampS: number;
  body: Buffer;
  secrets: readonly string[];
}): StandardWebhookHeaders {
  if (opts.secrets.length === 0) throw new Error("signStandardWebhook needs at least one secret");
  const timestamp = String(Math.floor(opts.timestampS));
  const prefix = Buffer.from(`${opts.id}.${timestamp}.`, "utf8");
  const signatures = opts.secrets.map((secret) => {
    const mac = createHmac("sha256", decodeSecret(secret)).update(prefix).update(opts.body).digest("base64");
    return `v1,${mac}`;
  });
  return { "webhook-id": opts.id, "webhook-timestamp": timestamp, "webhook-signature": signatures.join(" ") };
}

/**
 * A fresh secret in the Standard Webhooks format: `whsec_` + base64 of `bytes` random bytes (24 by
 * default, the Standard Webhooks minimum; outbound endpoints use 24–64).
 */
export function generateSecret(bytes = 24): string {
  if (!Number.isInteger(bytes) || bytes < 1)
    throw new RangeError("generateSecret needs a positive byte count");
  return `${PREFIX}${randomBytes(bytes).toString("base64")}`;
}

// Standard Webhooks (and Svix, which is the same scheme under `svix-*` header names):
// `webhook-signature: v1,<base64> [v1,<base64> …]` over `${webhook-id}.${webhook-timestamp}.${body}`,
// HMAC-SHA256 keyed with the base64-decoded secret after its `whsec_` prefix. Several entries are sent
// during a sender's key rotation; `v1a` (asymmetric) entries are ignored.
import type { KeyObject } from "node:crypto";
import { createSecretKey } from "node:crypto";
import { anyKeyMatches, decodeSignature } from "../crypto.ts";
import { fail, type VerifyOutcome, type VerifyRequest } from "../outcome.ts";
import { checkTimestamp } from "../timestamp.ts";
import type { z } from "zod";
import {
  type SchemeView,
  type VerifyPreset,
  secretsOptions,
  toleranceOption,
  toleranceWindow,
  verifyConfigSchema,
} from "../preset.ts";

const standardWebhooksSchema = verifyConfigSchema("standard_webhooks", {
  ...secretsOptions,
  tolerance_s: toleranceOption,
});
type StandardWebhooksVerifyConfig = z.infer<typeof standardWebhooksSchema>;
type StandardWebhooksConfig = SchemeView<StandardWebhooksVerifyConfig>;

const SECRET_PREFIX = "whsec_";
const keyCache = new WeakMap<StandardWebhooksConfig, readonly KeyObject[]>();

/** Secrets that decode to no bytes are unusable and dropped rather than turned into an empty HMAC key. */
function decodedKeys(cfg: StandardWebhooksConfig): readonly KeyObject[] {
  let keys = keyCache.get(cfg);
  if (keys === undefined) {
    keys = cfg.secrets
      .map((s) => Buffer.from(s.startsWith(SECRET_PREFIX) ? s.slice(SECRET_PREFIX.length) : s, "base64"))
      .filter((b) => b.length > 0)
      .map((b) => createSecretKey(b));
    keyCache.set(cfg, keys);
  }
  return keys;
}

/** A header under its Standard Webhooks name, else under its Svix name. */
function header(req: VerifyRequest, name: "id" | "timestamp" | "signature"): string | undefined {
  const value = req.headers[`webhook-${name}`] || req.headers[`svix-${name}`];
  return value === "" ? undefined : value;
}

function parseSignatures(value: string): Buffer[] {
  const out: Buffer[] = [];
  for (const entry of value.split(" ")) {
    const comma = entry.indexOf(",");
    if (comma < 0 || entry.slice(0, comma) !== "v1") continue;
    const sig = decodeSignature(entry.slice(comma + 1), "base64");
    if (sig !== undefined) out.push(sig);
  }
  return out;
}

/** Verify a Standard Webhooks or Svix message; a valid one reports the id it covered (`messageId`). */
export function verifyStandardWebhooks(
  cfg: StandardWebhooksConfig,
  req: VerifyRequest,
  nowMs: number,
): VerifyOutcome {
  const signature = header(req, "signature");
  if (signature === undefined) return fail("missing webhook-signature header");
  const id = header(req, "id");
  if (id === undefined) return fail("missing webhook-id header");
  const timestamp = header(req, "timestamp");
  if (timestamp === undefined) return fail("missing webhook-timestamp header");
  const signatures = parseSignatures(signature);
  if (signatures.length === 0) return fail("malformed webhook-signature header");
  const fresh = checkTimestamp(timestamp, nowMs, cfg.tolerance_s);
  if (!fresh.ok) return fresh;
  const keys = decodedKeys(cfg);
  if (keys.length === 0) return fail("no usable standard_webhooks secret configured");
  const parts = [`${id}.${timestamp}.`, req.body];
  return anyKeyMatches("sha256", keys, parts, signatures)
    ? { ok: true, messageId: id }
    : fail("no signature matched");
}

/**
 * `verify: { type: standard_webhooks }`, Svix included. The signature covers the message id, under either
 * family's header name; `dedup: standard_webhooks` and `dedup: svix` key on it (each trying its own
 * family's name first), and a dedup on any other header is refused at boot.
 */
export const standardWebhooksPreset: VerifyPreset<StandardWebhooksVerifyConfig> = {
  type: "standard_webhooks",
  schema: standardWebhooksSchema,
  verify: verifyStandardWebhooks,
  dedup: {
    standard_webhooks: { headers: ["webhook-id", "svix-id"] },
    svix: { headers: ["svix-id", "webhook-id"] },
  },
  covers: { kind: "id", headers: ["webhook-id", "svix-id"] },
  replayWindow: toleranceWindow,
};

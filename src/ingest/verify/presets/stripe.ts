// Stripe: `stripe-signature: t=<unix>,v1=<hex>[,v1=<hex>…]`, HMAC-SHA256 of `${t}.${body}` keyed with the
// endpoint secret string as-is (including its `whsec_` prefix). Stripe sends several v1 entries while an
// endpoint secret is being rolled, and any one matching any configured secret is enough.
import { anyKeyMatches, decodeSignature } from "../crypto.ts";
import { utf8Keys } from "../keys.ts";
import { OK, fail, type VerifyOutcome, type VerifyRequest } from "../outcome.ts";
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

const stripeSchema = verifyConfigSchema("stripe", { ...secretsOptions, tolerance_s: toleranceOption });
type StripeVerifyConfig = z.infer<typeof stripeSchema>;
type StripeConfig = SchemeView<StripeVerifyConfig>;

const HEADER = "stripe-signature";

interface ParsedHeader {
  timestamp: string;
  signatures: Buffer[];
}

function parseHeader(value: string): ParsedHeader | undefined {
  let timestamp: string | undefined;
  const signatures: Buffer[] = [];
  for (const item of value.split(",")) {
    const eq = item.indexOf("=");
    if (eq <= 0) continue;
    const key = item.slice(0, eq).trim();
    const val = item.slice(eq + 1).trim();
    if (key === "t") timestamp ??= val;
    else if (key === "v1") {
      const sig = decodeSignature(val, "hex");
      if (sig !== undefined) signatures.push(sig);
    }
  }
  if (timestamp === undefined || signatures.length === 0) return undefined;
  return { timestamp, signatures };
}

/** Verify a Stripe webhook. */
export function verifyStripe(cfg: StripeConfig, req: VerifyRequest, nowMs: number): VerifyOutcome {
  const header = req.headers[HEADER];
  if (header === undefined || header === "") return fail(`missing ${HEADER} header`);
  const parsed = parseHeader(header);
  if (parsed === undefined) return fail(`malformed ${HEADER} header`);
  const fresh = checkTimestamp(parsed.timestamp, nowMs, cfg.tolerance_s);
  if (!fresh.ok) return fresh;
  const parts = [`${parsed.timestamp}.`, req.body];
  return anyKeyMatches("sha256", utf8Keys(cfg), parts, parsed.signatures) ? OK : fail("no signature matched");
}

/** `verify: { type: stripe }`; `dedup: stripe` keys on the event id in the (signed) body. */
export const stripePreset: VerifyPreset<StripeVerifyConfig> = {
  type: "stripe",
  schema: stripeSchema,
  verify: verifyStripe,
  dedup: { stripe: { json: "id" } },
  covers: { kind: "body" },
  replayWindow: toleranceWindow,
};

// Shopify: `x-shopify-hmac-sha256: <base64 HMAC-SHA256 of the body>`, keyed with the app's client secret.
// No timestamp in the scheme; replays are left to dedup on `x-shopify-webhook-id`.
import type { SchemeConfig } from "./scheme-config.ts";
import { anyKeyMatches, decodeSignature } from "./crypto.ts";
import { utf8Keys } from "./keys.ts";
import { OK, fail, type VerifyOutcome, type VerifyRequest } from "./outcome.ts";

type ShopifyConfig = Extract<SchemeConfig, { type: "shopify" }>;

const HEADER = "x-shopify-hmac-sha256";

/** Verify a Shopify webhook. */
export function verifyShopify(cfg: ShopifyConfig, req: VerifyRequest): VerifyOutcome {
  const header = req.headers[HEADER];
  if (header === undefined || header === "") return fail(`missing ${HEADER} header`);
  const sig = decodeSignature(header.trim(), "base64");
  if (sig === undefined) return fail(`malformed ${HEADER} header`);
  return anyKeyMatches("sha256", utf8Keys(cfg), [req.body], [sig]) ? OK : fail("no signature matched");
}

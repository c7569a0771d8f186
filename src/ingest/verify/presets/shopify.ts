// Shopify: `x-shopify-hmac-sha256: <base64 HMAC-SHA256 of the body>`, keyed with the app's client secret.
// No timestamp in the scheme; replays are left to dedup on `x-shopify-webhook-id`.
import { anyKeyMatches, decodeSignature } from "../crypto.ts";
import { utf8Keys } from "../keys.ts";
import { OK, fail, type VerifyOutcome, type VerifyRequest } from "../outcome.ts";
import type { z } from "zod";
import {
  NO_TIMESTAMP_WINDOW,
  type SchemeView,
  type VerifyPreset,
  secretsOptions,
  verifyConfigSchema,
} from "../preset.ts";

const shopifySchema = verifyConfigSchema("shopify", { ...secretsOptions });
type ShopifyVerifyConfig = z.infer<typeof shopifySchema>;
type ShopifyConfig = SchemeView<ShopifyVerifyConfig>;

const HEADER = "x-shopify-hmac-sha256";

/** Verify a Shopify webhook. */
export function verifyShopify(cfg: ShopifyConfig, req: VerifyRequest): VerifyOutcome {
  const header = req.headers[HEADER];
  if (header === undefined || header === "") return fail(`missing ${HEADER} header`);
  const sig = decodeSignature(header.trim(), "base64");
  if (sig === undefined) return fail(`malformed ${HEADER} header`);
  return anyKeyMatches("sha256", utf8Keys(cfg), [req.body], [sig]) ? OK : fail("no signature matched");
}

/** `verify: { type: shopify }`; `dedup: shopify` keys on the webhook id, which the signature does not cover. */
export const shopifyPreset: VerifyPreset<ShopifyVerifyConfig> = {
  type: "shopify",
  schema: shopifySchema,
  verify: (cfg, req) => verifyShopify(cfg, req),
  dedup: { shopify: { headers: ["x-shopify-webhook-id"] } },
  covers: { kind: "body" },
  replayWindow: () => NO_TIMESTAMP_WINDOW,
};

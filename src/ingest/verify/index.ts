// Inbound signature verification: one entry point that dispatches on the source's configured scheme.
// Pure and synchronous (no I/O), and never throws on request input, so the ingest route can call it
// inline and map `{ ok: false }` to 401 or quarantine.
import type { VerifyConfig } from "../../config/schema.ts";
import { verifyCustomHmac } from "./custom-hmac.ts";
import { verifyGithub } from "./github.ts";
import { OK, fail, type VerifyOutcome, type VerifyRequest } from "./outcome.ts";
import { schemeConfigFor } from "./scheme-config.ts";
import { verifyShopify } from "./shopify.ts";
import { verifySlack } from "./slack.ts";
import { verifyStandardWebhooks } from "./standard-webhooks.ts";
import { verifyStripe } from "./stripe.ts";

export type { VerifyOutcome, VerifyRequest } from "./outcome.ts";

/**
 * Verify `req` under the source's scheme. A signature valid under any secret that applies passes: the
 * source's shared secrets, or with `secrets_by_tenant` only those of the hook's `tenant`.
 * @param nowMs the clock for timestamp tolerance, passed in so callers and tests control it.
 */
export function verifySignature(
  source: VerifyConfig,
  req: VerifyRequest,
  nowMs: number,
  tenant?: string,
): VerifyOutcome {
  const cfg = schemeConfigFor(source, tenant);
  if (cfg === undefined) return fail(`no ${source.type} secrets configured for this tenant`);
  switch (cfg.type) {
    case "none":
      return OK;
    case "stripe":
      return verifyStripe(cfg, req, nowMs);
    case "github":
      return verifyGithub(cfg, req);
    case "shopify":
      return verifyShopify(cfg, req);
    case "slack":
      return verifySlack(cfg, req, nowMs);
    case "standard_webhooks":
      return verifyStandardWebhooks(cfg, req, nowMs);
    case "hmac":
      return verifyCustomHmac(cfg, req, nowMs);
    default: {
      // Unreachable for a parsed config; a hand-built one still gets a failure rather than a throw.
      const unknown: never = cfg;
      return fail(`unknown verify type ${String((unknown as { type?: unknown }).type)}`);
    }
  }
}

/** The scheme's name for the `scheme` label of `switchyard_verify_failures_total`, e.g. "stripe". */
export function verifySchemeName(cfg: VerifyConfig): string {
  return cfg.type;
}

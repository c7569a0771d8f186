// Inbound signature verification: one entry point that hands a request to the source's preset.
// Pure and synchronous (no I/O), and never throws on request input, so the ingest route can call it
// inline and map `{ ok: false }` to 401 or quarantine.
import type { VerifyConfig } from "../../config/schema.ts";
import { fail, type VerifyOutcome, type VerifyRequest } from "./outcome.ts";
import { verifyPresetOf } from "./registry.ts";
import { schemeConfigFor } from "./scheme-config.ts";

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
  // Unregistered only in a hand-built config; it still gets a failure rather than a throw.
  const preset = verifyPresetOf(source.type);
  if (preset === undefined) return fail(`unknown verify type ${String(source.type)}`);
  const cfg = schemeConfigFor(source, tenant);
  if (cfg === undefined) return fail(`no ${source.type} secrets configured for this tenant`);
  return preset.verify(cfg, req, nowMs);
}

/** The scheme's name for the `scheme` label of `switchyard_verify_failures_total`, e.g. "stripe". */
export function verifySchemeName(cfg: VerifyConfig): string {
  return cfg.type;
}

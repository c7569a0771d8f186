// Which dedup settings agree with which verify schemes. A hook is deduplicated on the message id its
// signature covers: if dedup read a header the signature does not cover, one captured request could be
// re-sent with a new value there and be accepted as a new hook, signature and all. What a scheme's
// signature covers is its preset's (`covers`, src/ingest/verify/presets/):
//   - A scheme that signs a message id (Standard Webhooks / Svix: `webhook-id` or `svix-id`) must be
//     deduplicated on that id (ingest then keys on the id the verifier checked, whichever family it
//     came under), on the body hash, or on a body field; any other header is refused at boot.
//   - A scheme that signs only the body (and a timestamp, for some) agrees with the body hash or a body
//     field. A header dedup there reads an unsigned header: a warning, not a refusal, because it is
//     how those providers document their delivery ids (GitHub, Shopify) and configs rely on it.
import { dedupPresetOf, verifyPresetOf } from "../ingest/verify/registry.ts";
import type { DedupConfig, VerifyConfig } from "./source-schema.ts";

/** The header a dedup setting keys on, if it keys on one (a preset's: the first header it tries). */
export function dedupHeader(dedup: DedupConfig): string | undefined {
  if (typeof dedup === "object") return "header" in dedup ? dedup.header : undefined;
  const preset = dedupPresetOf(dedup);
  return preset !== undefined && "headers" in preset ? preset.headers[0] : undefined;
}

export type DedupAgreement =
  | { readonly kind: "agrees" }
  | { readonly kind: "refused"; readonly message: string }
  /** Keyed on `header`, which the scheme does not sign; a captured body may come back under a new one within `window`. */
  | { readonly kind: "unsigned_header"; readonly header: string; readonly window: string };

/** Does `dedup` key on what `verify` signs? */
export function dedupAgreement(verify: VerifyConfig, dedup: DedupConfig): DedupAgreement {
  const header = dedupHeader(dedup);
  const preset = verifyPresetOf(verify.type);
  // The body (or a field of it) is signed by every scheme; with `none` nothing is, so nothing disagrees.
  if (header === undefined || preset === undefined || preset.covers.kind === "nothing")
    return { kind: "agrees" };
  if (preset.covers.kind === "body")
    return { kind: "unsigned_header", header, window: preset.replayWindow(verify) };
  const signed = preset.covers.headers;
  if (signed.includes(header)) return { kind: "agrees" };
  const idPresets = Object.keys(preset.dedup);
  return {
    kind: "refused",
    message:
      `keys on ${header}, which a ${verify.type} signature does not cover (it signs ${signed.join(" or ")}): ` +
      `a captured request re-sent with a new ${header} would be accepted again. Use dedup ` +
      `${idPresets.length > 0 ? `${idPresets.join(" or ")} (the id the signature covers), ` : ""}body, or a { json: … } field`,
  };
}

/** Does the source's scheme sign nothing (`none`), so its hooks are bound to no secret or tenant? */
export function signsNothing(verify: VerifyConfig): boolean {
  return verifyPresetOf(verify.type)?.covers.kind === "nothing";
}

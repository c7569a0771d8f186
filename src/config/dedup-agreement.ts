// Which dedup settings agree with which verify schemes. A hook is deduplicated on the message id its
// signature covers: if dedup read a header the signature does not cover, one captured request could be
// re-sent with a new value there and be accepted as a new hook, signature and all.
//   - A scheme that signs a message id (Standard Webhooks / Svix: `webhook-id` or `svix-id`) must be
//     deduplicated on that id (ingest then keys on the id the verifier checked, whichever family it
//     came under), on the body hash, or on a body field; any other header is refused at boot.
//   - A scheme that signs only the body (and a timestamp, for some) agrees with the body hash or a body
//     field. A header dedup there reads an unsigned header: a warning, not a refusal, because it is
//     how those providers document their delivery ids (GitHub, Shopify) and configs rely on it.
import type { DedupConfig, VerifyConfig } from "./source-schema.ts";

/** The message-id headers a scheme's signature covers. */
const SIGNED_ID_HEADERS: Partial<Record<VerifyConfig["type"], readonly string[]>> = {
  standard_webhooks: ["webhook-id", "svix-id"],
};

/** The header a dedup setting keys on, if it keys on one. */
export function dedupHeader(dedup: DedupConfig): string | undefined {
  if (typeof dedup === "object") return "header" in dedup ? dedup.header : undefined;
  switch (dedup) {
    case "github":
      return "x-github-delivery";
    case "shopify":
      return "x-shopify-webhook-id";
    case "standard_webhooks":
      return "webhook-id";
    case "svix":
      return "svix-id";
    case "stripe":
    case "body":
      return undefined;
    default:
      dedup satisfies never;
      return undefined;
  }
}

export type DedupAgreement =
  | { readonly kind: "agrees" }
  | { readonly kind: "refused"; readonly message: string }
  /** Keyed on `header`, which the scheme does not sign; a captured body may come back under a new one within `window`. */
  | { readonly kind: "unsigned_header"; readonly header: string; readonly window: string };

/** How long a captured request passes verification: the timestamp tolerance, or forever without one. */
function replayWindow(verify: VerifyConfig): string {
  switch (verify.type) {
    case "stripe":
    case "slack":
    case "standard_webhooks":
      return `for ${verify.tolerance_s} s (the timestamp tolerance)`;
    case "hmac":
      return verify.timestamp_header === undefined
        ? "indefinitely (no timestamp is signed)"
        : `for ${verify.tolerance_s} s (the timestamp tolerance)`;
    case "github":
    case "shopify":
    case "none":
      return "indefinitely (the scheme signs no timestamp)";
  }
}

/** Does `dedup` key on what `verify` signs? */
export function dedupAgreement(verify: VerifyConfig, dedup: DedupConfig): DedupAgreement {
  const header = dedupHeader(dedup);
  // The body (or a field of it) is signed by every scheme; with `none` nothing is, so nothing disagrees.
  if (header === undefined || verify.type === "none") return { kind: "agrees" };
  const signed = SIGNED_ID_HEADERS[verify.type];
  if (signed === undefined) return { kind: "unsigned_header", header, window: replayWindow(verify) };
  if (signed.includes(header)) return { kind: "agrees" };
  return {
    kind: "refused",
    message:
      `keys on ${header}, which a ${verify.type} signature does not cover (it signs ${signed.join(" or ")}): ` +
      `a captured request re-sent with a new ${header} would be accepted again. Use dedup ` +
      `standard_webhooks or svix (the id the signature covers), body, or a { json: … } field`,
  };
}

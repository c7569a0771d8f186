// The dedup key of an inbound hook: the provider's own event/delivery id where the source's preset names
// one (a header or a body field, as its verification preset defines it), else a hash of the body. Keys are namespaced by origin (`h:` header, `j:` JSON field, `sha256:` body
// hash) so an id taken from one place can never collide with a value taken from another. Pure; never throws.
import { createHash } from "node:crypto";
import { dedupHeader } from "../config/dedup-agreement.ts";
import type { DedupConfig } from "../config/schema.ts";
import { jsonPathValue } from "./json-path-scan.ts";
import { dedupPresetOf } from "./verify/registry.ts";

/** Longer explicit values are replaced by their hash, keeping Redis keys bounded whatever a sender sends. */
const MAX_VALUE_CHARS = 200;

type Origin = "h" | "j";

function sha256Hex(data: Buffer | string): string {
  return createHash("sha256").update(data).digest("hex");
}

function explicitKey(origin: Origin, value: string): string {
  return value.length > MAX_VALUE_CHARS ? `${origin}-sha256:${sha256Hex(value)}` : `${origin}:${value}`;
}

/** The first of `names` present with a non-empty value. */
function headerValue(headers: Readonly<Record<string, string>>, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = headers[name];
    if (typeof value === "string" && value !== "") return value;
  }
  return undefined;
}

function fromJson(body: Buffer, path: string, bodyKey: () => string): string {
  const value = jsonPathValue(body, path);
  return value === undefined ? bodyKey() : explicitKey("j", value);
}

function fromHeader(
  headers: Readonly<Record<string, string>>,
  bodyKey: () => string,
  ...names: string[]
): string {
  const value = headerValue(headers, ...names);
  return value === undefined ? bodyKey() : explicitKey("h", value);
}

/**
 * The dedup key for a hook under the source's `dedup` setting. Falls back to `sha256:<hex of body>` when the
 * preset's field is missing or empty, or the body is not JSON (or is nested deeper than 64 levels, or is
 * over 1 MiB: see json-path-scan.ts). Header names in `headers` are lower-case.
 * `bodySha256` is the body's hex sha256 when the caller has it already (ingest computes it once).
 * `verifiedId` is the message id the signature covered, when the scheme signs one: a header setting then
 * keys on it rather than on whatever the headers say (the boot check has refused a header setting that
 * does not name that id's header), so a new value in an unsigned header makes no new hook.
 */
export function computeDedupKey(
  cfg: DedupConfig,
  headers: Readonly<Record<string, string>>,
  body: Buffer,
  bodySha256?: string,
  verifiedId?: string,
): string {
  const bodyKey = (): string => `sha256:${bodySha256 ?? sha256Hex(body)}`;
  if (verifiedId !== undefined && verifiedId !== "" && dedupHeader(cfg) !== undefined)
    return explicitKey("h", verifiedId);
  if (typeof cfg === "object" && cfg !== null) {
    return "header" in cfg
      ? fromHeader(headers, bodyKey, cfg.header.toLowerCase())
      : fromJson(body, cfg.json, bodyKey);
  }
  // `body`, and (for a hand-built config) a name no preset defines, key on the body.
  const preset = dedupPresetOf(cfg);
  if (preset === undefined) return bodyKey();
  return "json" in preset
    ? fromJson(body, preset.json, bodyKey)
    : fromHeader(headers, bodyKey, ...preset.headers);
}

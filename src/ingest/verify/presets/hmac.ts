// The custom `hmac` scheme, for providers without a preset: a named header carrying `<prefix><digest>`,
// the digest an HMAC (sha256/sha512/sha1, hex/base64) over a template of `{body}` and `{timestamp}`.
// The template is split once per config so a request only feeds the pieces to the HMAC.
import { anyKeyMatches, decodeSignature } from "../crypto.ts";
import { utf8Keys } from "../keys.ts";
import { OK, fail, type VerifyOutcome, type VerifyRequest } from "../outcome.ts";
import { checkTimestamp } from "../timestamp.ts";
import { z } from "zod";
import {
  type SchemeView,
  type VerifyPreset,
  secretsOptions,
  toleranceOption,
  toleranceWindow,
  verifyConfigSchema,
} from "../preset.ts";

const hmacSchema = verifyConfigSchema("hmac", {
  ...secretsOptions,
  header: z.string().min(1).toLowerCase(),
  /** What is signed: `{body}`, optionally with `{timestamp}` from `timestamp_header`. */
  template: z.string().default("{body}"),
  hash: z.enum(["sha256", "sha512", "sha1"]).default("sha256"),
  encoding: z.enum(["hex", "base64"]).default("hex"),
  prefix: z.string().default(""),
  timestamp_header: z.string().toLowerCase().optional(),
  tolerance_s: toleranceOption,
});
type HmacVerifyConfig = z.infer<typeof hmacSchema>;
type HmacConfig = SchemeView<HmacVerifyConfig>;

type Piece = { kind: "text"; text: string } | { kind: "body" } | { kind: "timestamp" };

interface Prepared {
  header: string;
  timestampHeader: string | undefined;
  pieces: readonly Piece[];
  usesTimestamp: boolean;
}

const PLACEHOLDER = /\{(body|timestamp)\}/g;
const preparedCache = new WeakMap<HmacConfig, Prepared>();

function splitTemplate(template: string): Piece[] {
  const pieces: Piece[] = [];
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    if (match.index > last) pieces.push({ kind: "text", text: template.slice(last, match.index) });
    pieces.push({ kind: match[1] === "body" ? "body" : "timestamp" });
    last = match.index + match[0].length;
  }
  if (last < template.length) pieces.push({ kind: "text", text: template.slice(last) });
  return pieces;
}

function prepare(cfg: HmacConfig): Prepared {
  let prepared = preparedCache.get(cfg);
  if (prepared === undefined) {
    const pieces = splitTemplate(cfg.template);
    prepared = {
      header: cfg.header.toLowerCase(),
      timestampHeader: cfg.timestamp_header?.toLowerCase() || undefined,
      pieces,
      usesTimestamp: pieces.some((p) => p.kind === "timestamp"),
    };
    preparedCache.set(cfg, prepared);
  }
  return prepared;
}

/** Verify a request under a custom HMAC scheme. */
export function verifyCustomHmac(cfg: HmacConfig, req: VerifyRequest, nowMs: number): VerifyOutcome {
  const p = prepare(cfg);
  const value = req.headers[p.header];
  if (value === undefined || value === "") return fail(`missing ${p.header} header`);
  const sig = value.startsWith(cfg.prefix)
    ? decodeSignature(value.slice(cfg.prefix.length).trim(), cfg.encoding)
    : undefined;
  if (sig === undefined) return fail(`malformed ${p.header} header`);

  let timestamp = "";
  if (p.timestampHeader !== undefined) {
    const raw = req.headers[p.timestampHeader];
    if (raw === undefined || raw === "") return fail(`missing ${p.timestampHeader} header`);
    const fresh = checkTimestamp(raw, nowMs, cfg.tolerance_s);
    if (!fresh.ok) return fresh;
    timestamp = raw;
  } else if (p.usesTimestamp) {
    return fail("template uses {timestamp} but no timestamp_header is configured");
  }

  const parts = p.pieces.map((piece) =>
    piece.kind === "text" ? piece.text : piece.kind === "body" ? req.body : timestamp,
  );
  return anyKeyMatches(cfg.hash, utf8Keys(cfg), parts, [sig]) ? OK : fail("no signature matched");
}

/** `verify: { type: hmac }`, for providers without a preset; no dedup preset of its own. */
export const hmacPreset: VerifyPreset<HmacVerifyConfig> = {
  type: "hmac",
  schema: hmacSchema,
  verify: verifyCustomHmac,
  dedup: {},
  covers: { kind: "body" },
  replayWindow: (cfg) =>
    cfg.timestamp_header === undefined ? "indefinitely (no timestamp is signed)" : toleranceWindow(cfg),
};

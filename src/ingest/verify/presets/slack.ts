// Slack: `x-slack-signature: v0=<hex>` over `v0:${x-slack-request-timestamp}:${body}`, HMAC-SHA256 keyed
// with the app's signing secret; the timestamp header bounds replays.
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

const slackSchema = verifyConfigSchema("slack", { ...secretsOptions, tolerance_s: toleranceOption });
type SlackVerifyConfig = z.infer<typeof slackSchema>;
type SlackConfig = SchemeView<SlackVerifyConfig>;

const SIGNATURE = "x-slack-signature";
const TIMESTAMP = "x-slack-request-timestamp";
const PREFIX = "v0=";

/** Verify a Slack request. */
export function verifySlack(cfg: SlackConfig, req: VerifyRequest, nowMs: number): VerifyOutcome {
  const header = req.headers[SIGNATURE];
  if (header === undefined || header === "") return fail(`missing ${SIGNATURE} header`);
  const timestamp = req.headers[TIMESTAMP];
  if (timestamp === undefined || timestamp === "") return fail(`missing ${TIMESTAMP} header`);
  const sig = header.startsWith(PREFIX) ? decodeSignature(header.slice(PREFIX.length), "hex") : undefined;
  if (sig === undefined) return fail(`malformed ${SIGNATURE} header`);
  const fresh = checkTimestamp(timestamp, nowMs, cfg.tolerance_s);
  if (!fresh.ok) return fresh;
  const parts = [`v0:${timestamp}:`, req.body];
  return anyKeyMatches("sha256", utf8Keys(cfg), parts, [sig]) ? OK : fail("no signature matched");
}

/** `verify: { type: slack }`: no dedup preset of its own (Slack sends no delivery id). */
export const slackPreset: VerifyPreset<SlackVerifyConfig> = {
  type: "slack",
  schema: slackSchema,
  verify: verifySlack,
  dedup: {},
  covers: { kind: "body" },
  replayWindow: toleranceWindow,
};

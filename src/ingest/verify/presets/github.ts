// GitHub: `x-hub-signature-256: sha256=<hex HMAC-SHA256 of the body>`. No timestamp in the scheme, so
// replays are left to dedup on `x-github-delivery`. The legacy SHA-1 `x-hub-signature` is not accepted.
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

const githubSchema = verifyConfigSchema("github", { ...secretsOptions });
type GithubVerifyConfig = z.infer<typeof githubSchema>;
type GithubConfig = SchemeView<GithubVerifyConfig>;

const HEADER = "x-hub-signature-256";
const PREFIX = "sha256=";

/** Verify a GitHub webhook. */
export function verifyGithub(cfg: GithubConfig, req: VerifyRequest): VerifyOutcome {
  const header = req.headers[HEADER];
  if (header === undefined || header === "") return fail(`missing ${HEADER} header`);
  const sig = header.startsWith(PREFIX) ? decodeSignature(header.slice(PREFIX.length), "hex") : undefined;
  if (sig === undefined) return fail(`malformed ${HEADER} header`);
  return anyKeyMatches("sha256", utf8Keys(cfg), [req.body], [sig]) ? OK : fail("no signature matched");
}

/** `verify: { type: github }`; `dedup: github` keys on the delivery id, which the signature does not cover. */
export const githubPreset: VerifyPreset<GithubVerifyConfig> = {
  type: "github",
  schema: githubSchema,
  verify: (cfg, req) => verifyGithub(cfg, req),
  dedup: { github: { headers: ["x-github-delivery"] } },
  covers: { kind: "body" },
  replayWindow: () => NO_TIMESTAMP_WINDOW,
};

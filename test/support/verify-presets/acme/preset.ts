// A verification preset added the way any preset is: this one module exporting a VerifyPreset,
// registered with one `registerVerifyPreset(acmePreset)` line. "Acme" signs `${x-acme-id}.${body}` with
// HMAC-SHA256 (hex in x-acme-signature), so its signature covers a message id: `dedup: acme` keys on
// it, and a dedup on any other header is refused at boot.
import type { z } from "zod";
import { anyKeyMatches, decodeSignature } from "../../../../src/ingest/verify/crypto.ts";
import { utf8Keys } from "../../../../src/ingest/verify/keys.ts";
import { fail } from "../../../../src/ingest/verify/outcome.ts";
import {
  NO_TIMESTAMP_WINDOW,
  type VerifyPreset,
  secretsOptions,
  verifyConfigSchema,
} from "../../../../src/ingest/verify/preset.ts";

const acmeSchema = verifyConfigSchema("acme", { ...secretsOptions });

export const acmePreset: VerifyPreset<z.infer<typeof acmeSchema>> = {
  type: "acme",
  schema: acmeSchema,
  verify: (cfg, req) => {
    const id = req.headers["x-acme-id"];
    if (id === undefined || id === "") return fail("missing x-acme-id header");
    const sig = decodeSignature(req.headers["x-acme-signature"] ?? "", "hex");
    if (sig === undefined) return fail("malformed x-acme-signature header");
    return anyKeyMatches("sha256", utf8Keys(cfg), [`${id}.`, req.body], [sig])
      ? { ok: true, messageId: id }
      : fail("no signature matched");
  },
  dedup: { acme: { headers: ["x-acme-id"] } },
  covers: { kind: "id", headers: ["x-acme-id"] },
  replayWindow: () => NO_TIMESTAMP_WINDOW,
};

// `verify: { type: none }`: nothing is checked, for sources whose sender signs nothing (or a trusted
// network in front). Nothing is signed, so no dedup setting disagrees with it.
import type { z } from "zod";
import { OK } from "../outcome.ts";
import { type VerifyPreset, verifyConfigSchema } from "../preset.ts";

const noneSchema = verifyConfigSchema("none", {});

export const nonePreset: VerifyPreset<z.infer<typeof noneSchema>> = {
  type: "none",
  schema: noneSchema,
  verify: () => OK,
  dedup: {},
  covers: { kind: "nothing" },
  replayWindow: () => "indefinitely (nothing is signed)",
};

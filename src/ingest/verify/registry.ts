// Verification presets by name. Adding one is a module under presets/ exporting a VerifyPreset and one
// line in BUILT_IN below (or one `registerVerifyPreset` call, which is how tests add theirs). The config
// schema, the dedup pairing rules, dedup keys and the verifier all ask here.
import { githubPreset } from "./presets/github.ts";
import { hmacPreset } from "./presets/hmac.ts";
import { nonePreset } from "./presets/none.ts";
import { shopifyPreset } from "./presets/shopify.ts";
import { slackPreset } from "./presets/slack.ts";
import { standardWebhooksPreset } from "./presets/standard-webhooks.ts";
import { stripePreset } from "./presets/stripe.ts";
import type { DedupPreset, VerifyPreset } from "./preset.ts";

export type { DedupPreset, SchemeView, VerifyConfigBase, VerifyPreset } from "./preset.ts";

const BUILT_IN: readonly VerifyPreset[] = [
  nonePreset,
  stripePreset,
  githubPreset,
  shopifyPreset,
  slackPreset,
  standardWebhooksPreset,
  hmacPreset,
];

/** `dedup: body`: the body hash, which every scheme signs; no preset defines it. */
export const BODY_DEDUP = "body";

const presets = new Map<string, VerifyPreset>();
const dedupPresets = new Map<string, DedupPreset>();
let generation = 0;

/** Add a verification preset; its `type` and the names of its dedup presets must be new. */
export function registerVerifyPreset(preset: VerifyPreset): void {
  if (presets.has(preset.type)) throw new Error(`verify type "${preset.type}" is registered already`);
  for (const name of Object.keys(preset.dedup)) {
    if (name === BODY_DEDUP || dedupPresets.has(name))
      throw new Error(`dedup preset "${name}" of verify type "${preset.type}" is registered already`);
  }
  presets.set(preset.type, preset);
  for (const [name, dedup] of Object.entries(preset.dedup)) dedupPresets.set(name, dedup);
  generation++;
}

for (const preset of BUILT_IN) registerVerifyPreset(preset);

/** Every preset, in registration order (the built-in ones first). */
export function verifyPresets(): readonly VerifyPreset[] {
  return [...presets.values()];
}

/** Bumped by each registration: a schema built from the presets is stale once this changes. */
export function verifyRegistryGeneration(): number {
  return generation;
}

/** The preset of `verify.type`; undefined only for a hand-built config of an unregistered type. */
export function verifyPresetOf(type: string): VerifyPreset | undefined {
  return presets.get(type);
}

/** Every `dedup:` preset name (`body` last), for the config schema. */
export function dedupPresetNames(): [string, ...string[]] {
  const [first, ...rest] = dedupPresets.keys();
  return first === undefined ? [BODY_DEDUP] : [first, ...rest, BODY_DEDUP];
}

/** What `dedup: <name>` reads; undefined for `body` (and for a name no preset defines). */
export function dedupPresetOf(name: string): DedupPreset | undefined {
  return dedupPresets.get(name);
}

// What a verification preset is, as one value: its `type`, its config schema, its verifier, the
// `dedup: <name>` presets it defines (which header or body field holds the provider's message id) and
// what its signature covers, from which the boot-time pairing of verify and dedup follows (a header the
// signature covers agrees; another header is refused where the scheme signs an id, warned about where
// it signs only the body). A preset is one module under presets/ plus one line in registry.ts.
import { z } from "zod";
import { name, positiveInt } from "../../config/fields.ts";
import { strict } from "../../config/unknown-keys.ts";
import type { VerifyOutcome, VerifyRequest } from "./outcome.ts";

// An empty secret is an unset `${OLD_SECRET:-}` (a rotation not under way): it verifies nothing and is dropped.
const secretList = z
  .array(z.string())
  .transform((list) => list.filter((secret) => secret.length > 0))
  .pipe(z.array(z.string()).min(1, "at least one secret").max(8, "at most 8 secrets"));

/**
 * A scheme's secrets: one list every tenant of the source shares, or a list per tenant (then a request
 * verifies only under its path tenant's secrets, which binds that tenant to what was signed). Exactly
 * one of the two; config/tenant-secrets.ts checks them against the source's tenants.
 */
export const secretsOptions = {
  secrets: secretList.optional(),
  secrets_by_tenant: z.record(name, secretList).optional(),
};

/** How far a signed timestamp may be from now, in seconds. */
export const toleranceOption = positiveInt.default(300);

/** The config schema of preset `type`: `type: <type>` and the preset's own keys, as a strict object. */
export function verifyConfigSchema<T extends string, S extends z.core.$ZodLooseShape>(type: T, shape: S) {
  return strict.object({ type: z.literal(type), ...shape });
}

/** What every `verify:` config holds, whatever its preset: all that code outside the preset reads. */
export interface VerifyConfigBase {
  readonly type: string;
  readonly secrets?: readonly string[] | undefined;
  readonly secrets_by_tenant?: Readonly<Record<string, readonly string[]>> | undefined;
}

/** A config with the secrets that apply to one request: the shared list or its tenant's. */
export type SchemeView<C> = C extends { readonly secrets?: unknown }
  ? Omit<C, "secrets" | "secrets_by_tenant"> & { readonly secrets: readonly string[] }
  : C;

/** Where `dedup: <name>` finds a hook's id: the first of `headers` present, or a JSON body field. */
export type DedupPreset = { readonly headers: readonly [string, ...string[]] } | { readonly json: string };

/** What a preset's signature covers besides the body, for pairing it with a dedup setting. */
export type SignatureCoverage =
  /** Nothing is signed (`none`): no dedup setting disagrees with it. */
  | { readonly kind: "nothing" }
  /** The body (and a timestamp, for some): a header dedup reads an unsigned header, which is warned about. */
  | { readonly kind: "body" }
  /** A message id in one of `headers` too: a header dedup on any other header is refused at boot. */
  | { readonly kind: "id"; readonly headers: readonly string[] };

/** A config schema the `verify:` union can tell apart by its `type` literal. */
export type VerifySchema<C extends VerifyConfigBase> = z.ZodType<C, unknown> & z.core.$ZodTypeDiscriminable;

/** One verification preset. `C` is its parsed config. */
export interface VerifyPreset<C extends VerifyConfigBase = VerifyConfigBase> {
  /** The `verify.type` value that selects it. */
  readonly type: string;
  readonly schema: VerifySchema<C>;
  /** Pure and synchronous, and never throws on request input: a bad request is `{ ok: false }`. */
  verify(cfg: SchemeView<C>, req: VerifyRequest, nowMs: number): VerifyOutcome;
  /** The `dedup:` presets this provider defines, by name. */
  readonly dedup: Readonly<Record<string, DedupPreset>>;
  readonly covers: SignatureCoverage;
  /** How long a captured request passes verification, for the warning about unsigned dedup headers. */
  replayWindow(cfg: C): string;
}

/** The replay window of a scheme that signs a timestamp checked against `tolerance_s`. */
export const toleranceWindow = (cfg: { readonly tolerance_s: number }): string =>
  `for ${cfg.tolerance_s} s (the timestamp tolerance)`;

/** The replay window of a scheme that signs no timestamp. */
export const NO_TIMESTAMP_WINDOW = "indefinitely (the scheme signs no timestamp)";

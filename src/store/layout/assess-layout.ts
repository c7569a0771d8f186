// What a prefix's layout calls for, read without writing: nothing (it is current), a first version to
// write (nothing there yet, or ledger data from before the version key existed), migrations to run,
// or a refusal (a newer layout, or one no migration of this release leaves). Boot and
// `switchyard migrate` (with or without --dry-run) act on the same answer.
import type { Keys } from "../keys.ts";
import type { RedisClient } from "../redis-client.ts";
import { type UnstampedLayout, detectUnstampedLayout } from "./detect-layout.ts";
import { CURRENT_LAYOUT, LayoutError, describeLayout } from "./layouts.ts";
import { type LayoutMigration, type LayoutSettings, chainOf } from "./migration.ts";
import { MIGRATIONS } from "./migrations.ts";

export interface LayoutOptions {
  /** The migrations known (default: this release's). */
  readonly migrations?: readonly LayoutMigration[];
  /** The layout this process uses (default CURRENT_LAYOUT). */
  readonly current?: number;
  /** What the migrations need of the config (default: DEFAULT_LAYOUT_SETTINGS). */
  readonly settings?: LayoutSettings;
}

export type LayoutAssessment =
  | { readonly kind: "current"; readonly version: number }
  | { readonly kind: "stamp"; readonly version: number; readonly found: UnstampedLayout }
  | {
      readonly kind: "migrate";
      /** undefined: nothing stamped (pre-ledger data, layout 0). */
      readonly stored: number | undefined;
      readonly from: number;
      readonly chain: readonly LayoutMigration[];
    }
  | { readonly kind: "refuse"; readonly error: LayoutError };

const UPGRADING = 'see "Upgrading" in the README';

/** The stored version, or undefined when there is none; a value that is no version is refused. */
export async function readLayoutVersion(redis: RedisClient, keys: Keys): Promise<number | undefined> {
  const raw = await redis.get(keys.layoutVersion);
  if (raw === null) return undefined;
  if (!/^\d{1,6}$/.test(raw))
    throw new LayoutError(
      `${keys.layoutVersion} holds "${raw.slice(0, 40)}", which is no layout version; ${UPGRADING}`,
    );
  return Number(raw);
}

export async function assessLayout(
  redis: RedisClient,
  keys: Keys,
  opts: LayoutOptions = {},
): Promise<LayoutAssessment> {
  const current = opts.current ?? CURRENT_LAYOUT;
  const where = `Redis prefix "${keys.prefix}"`;
  let stored: number | undefined;
  try {
    stored = await readLayoutVersion(redis, keys);
  } catch (err) {
    if (err instanceof LayoutError) return { kind: "refuse", error: err };
    throw err;
  }
  if (stored === current) return { kind: "current", version: current };
  if (stored !== undefined && stored > current)
    return {
      kind: "refuse",
      error: new LayoutError(
        `${where} holds data layout ${stored}, newer than this release knows (up to ${current}): a newer Switchyard wrote it; run that release or a later one, never an older one (${UPGRADING})`,
      ),
    };
  let from = stored;
  let example = "";
  if (from === undefined) {
    const found = await detectUnstampedLayout(redis, keys);
    // Fresh: the current layout from the start. Ledger keys without a version: written by a release
    // from before the version key, which had layout 1 (once stamped, migrations from 1 run as usual).
    if (found.kind === "empty") return { kind: "stamp", version: current, found };
    if (found.kind === "ledger") return { kind: "stamp", version: 1, found };
    // Both plans without a 0 -> 1 migration under way (its step markers): a ledger release wrote beside
    // pre-ledger data, and no migration can tell which of the two holds the truth.
    if (found.ledgerExample !== undefined && (await redis.exists(keys.layoutSteps(0, 1))) === 0)
      return {
        kind: "refuse",
        error: new LayoutError(
          `${where} holds both pre-ledger keys (e.g. ${found.example}) and ledger keys (e.g. ${found.ledgerExample}) with no layout version and no migration under way: a mixed layout no migration can sort out, so it will not start; move one of them to another prefix (${UPGRADING})`,
        ),
      };
    from = 0;
    example = ` (e.g. key ${found.example})`;
  }
  const path = chainOf(opts.migrations ?? MIGRATIONS, from, current);
  if ("missingFrom" in path) {
    const what =
      from === 0 && stored === undefined ? `pre-ledger data, layout 0${example}` : `data layout ${from}`;
    return {
      kind: "refuse",
      error: new LayoutError(
        `${where} holds ${what}, and this release has no migration from ${describeLayout(path.missingFrom)} to layout ${path.missingFrom + 1}: it would not read that data, so it will not start; ${UPGRADING}`,
      ),
    };
  }
  return { kind: "migrate", stored, from, chain: path.chain };
}

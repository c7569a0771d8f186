// `switchyard migrate --dry-run`: what the boot check would do to a prefix's layout, as lines to print,
// having only read.
import type { Keys } from "../keys.ts";
import type { RedisClient } from "../redis-client.ts";
import { type LayoutOptions, assessLayout } from "./assess-layout.ts";
import { CURRENT_LAYOUT, type LayoutError, describeLayout } from "./layouts.ts";
import { DEFAULT_LAYOUT_SETTINGS, type LayoutMigration, type LayoutSettings, chainOf } from "./migration.ts";
import { MIGRATIONS } from "./migrations.ts";

export interface LayoutPlan {
  readonly lines: readonly string[];
  /** Set when boot would refuse to start: its message. */
  readonly refused?: LayoutError;
}

async function planChain(
  redis: RedisClient,
  keys: Keys,
  chain: readonly LayoutMigration[],
  settings: LayoutSettings,
): Promise<string[]> {
  const lines: string[] = [];
  for (const m of chain) {
    lines.push(`would migrate layout ${m.from} -> ${m.to}: ${m.description}`);
    for (const change of await m.plan({ redis, keys, settings })) lines.push(`  ${change}`);
  }
  return lines;
}

export async function planLayout(
  redis: RedisClient,
  keys: Keys,
  opts: LayoutOptions = {},
): Promise<LayoutPlan> {
  const current = opts.current ?? CURRENT_LAYOUT;
  const settings = opts.settings ?? DEFAULT_LAYOUT_SETTINGS;
  const state = await assessLayout(redis, keys, opts);
  const head = `prefix "${keys.prefix}": this release uses ${describeLayout(current)}`;
  switch (state.kind) {
    case "refuse":
      return { lines: [head, `would refuse to start: ${state.error.message}`], refused: state.error };
    case "current":
      return { lines: [head, `layout ${state.version} is stored: nothing to migrate`] };
    case "stamp": {
      const lines = [
        head,
        state.found.kind === "empty"
          ? `no layout version and no keys: would write layout ${state.version}`
          : `no layout version, ledger keys (e.g. ${state.found.example}): would write layout ${state.version}`,
      ];
      const rest = chainOf(opts.migrations ?? MIGRATIONS, state.version, current);
      if ("chain" in rest) lines.push(...(await planChain(redis, keys, rest.chain, settings)));
      return { lines };
    }
    case "migrate":
      return {
        lines: [
          head,
          `${state.stored === undefined ? "no layout version, " : ""}layout ${state.from} is stored`,
          ...(await planChain(redis, keys, state.chain, settings)),
        ],
      };
  }
}

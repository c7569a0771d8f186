// What a layout migration is: one step of the layout version (`from` → `to`), with a dry run that only
// reads and a run that changes. A run is split into named steps (MigrationContext#step) whose completion
// is recorded in Redis, so a migration interrupted by a crash resumes at the first unfinished step.
import type { Logger } from "../../observability/logger.ts";
import type { Keys } from "../keys.ts";
import type { RedisClient } from "../redis-client.ts";

/** What a migration may need to know of the deployment's config (see layout-settings.ts). */
export interface LayoutSettings {
  /** retention_s: how long a finished record is kept. */
  readonly retentionS: number;
  /** recovery.stale_after_ms: when recovery takes up a row nobody is working on. */
  readonly staleAfterMs: number;
  /** Queue partitions per configured sink; undefined: every sink is taken as configured, with one. */
  readonly sinkPartitions?: Readonly<Record<string, number>>;
  /**
   * Sources deduplicating under one tenant for all their path tenants (their tenants share the
   * source's secrets): source name → the tenant its dedup identity names (undefined: none).
   */
  readonly sharedDedupSources: ReadonlyMap<string, string | undefined>;
}

/** Settings of a migration run without a config (tests, defaults of the schema). */
export const DEFAULT_LAYOUT_SETTINGS: LayoutSettings = {
  retentionS: 604_800,
  staleAfterMs: 60_000,
  sharedDedupSources: new Map(),
};

export interface PlanContext {
  readonly redis: RedisClient;
  readonly keys: Keys;
  readonly settings: LayoutSettings;
}

export interface MigrationContext extends PlanContext {
  readonly logger: Logger;
  /**
   * Run `body` unless an earlier run of this migration finished the step called `name`; record it as
   * done once `body` resolves. Throws, without running it, when the migration lock was lost.
   */
  step(name: string, body: () => Promise<void>): Promise<void>;
}

export interface LayoutMigration {
  readonly from: number;
  /** Always `from + 1`: migrations chain one version at a time. */
  readonly to: number;
  readonly description: string;
  /** What `run` would change, one line each, reading only (`switchyard migrate --dry-run`). */
  plan(ctx: PlanContext): Promise<string[]>;
  /** Make the change, every part of it inside `ctx.step`, each step idempotent. */
  run(ctx: MigrationContext): Promise<void>;
}

/** The migrations leading from `from` to `to`, in order, or the first version no migration leaves. */
export function chainOf(
  migrations: readonly LayoutMigration[],
  from: number,
  to: number,
): { readonly chain: LayoutMigration[] } | { readonly missingFrom: number } {
  const chain: LayoutMigration[] = [];
  for (let v = from; v < to; v++) {
    const next = migrations.find((m) => m.from === v);
    if (next === undefined || next.to !== v + 1) return { missingFrom: v };
    chain.push(next);
  }
  return { chain };
}

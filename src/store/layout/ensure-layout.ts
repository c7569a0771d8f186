// The layout check every process makes at boot, before any role writes: a current layout passes; a
// fresh prefix (or ledger data from before the version key) is stamped; an older layout is migrated
// by one process under the migration lock while the others wait for it; a newer layout, or one this
// release cannot migrate, is refused with a LayoutError (the process exits 78 having written nothing).
import type { Logger } from "../../observability/logger.ts";
import type { Keys } from "../keys.ts";
import type { RedisClient } from "../redis-client.ts";
import { type LayoutOptions, assessLayout } from "./assess-layout.ts";
import { MigrationLock } from "./migration-lock.ts";
import { runMigration } from "./run-migration.ts";

export interface EnsureLayoutOptions extends LayoutOptions {
  /** The migration lock's time to live, renewed while a migration runs (default 30 s). */
  readonly lockTtlMs?: number;
  /** How often a process waiting for another's migration looks again (default 500 ms). */
  readonly pollMs?: number;
}

export interface LayoutOutcome {
  /** The layout the prefix holds now (the current one). */
  readonly version: number;
  /** The migrations this call ran, as `from->to`. */
  readonly migrated: readonly string[];
  /** Set when this call wrote the first version: on an empty prefix, or over ledger data. */
  readonly stamped?: "empty" | "ledger";
}

export async function ensureLayout(
  redis: RedisClient,
  keys: Keys,
  logger: Logger,
  opts: EnsureLayoutOptions = {},
): Promise<LayoutOutcome> {
  const migrated: string[] = [];
  let stamped: LayoutOutcome["stamped"];
  let waiting = false;
  for (;;) {
    const state = await assessLayout(redis, keys, opts);
    if (state.kind === "refuse") throw state.error;
    if (state.kind === "current")
      return { version: state.version, migrated, ...(stamped ? { stamped } : {}) };
    if (state.kind === "stamp") {
      // NX: two processes booting on a fresh prefix at once write the same first version once.
      if ((await redis.set(keys.layoutVersion, String(state.version), "NX")) === "OK") {
        stamped = state.found.kind === "ledger" ? "ledger" : "empty";
        logger.info(
          {
            layout: state.version,
            ...(state.found.kind === "ledger" ? { example: state.found.example } : {}),
          },
          state.found.kind === "ledger"
            ? `data layout: ledger keys without a layout version, stamped layout ${state.version}`
            : `data layout: empty prefix, stamped layout ${state.version}`,
        );
      }
      continue;
    }
    const lock = await MigrationLock.take(redis, keys.layoutLock, opts.lockTtlMs ?? 30_000);
    if (lock === undefined) {
      if (!waiting)
        logger.info({ lock: keys.layoutLock }, "data layout: another process is migrating it; waiting");
      waiting = true;
      await new Promise((r) => setTimeout(r, opts.pollMs ?? 500));
      continue;
    }
    try {
      // Read again under the lock: the migration waited for may have run some or all of the chain.
      const locked = await assessLayout(redis, keys, opts);
      if (locked.kind === "migrate") {
        const next = locked.chain[0];
        if (next !== undefined) {
          await runMigration(redis, keys, logger, lock, next, opts.settings);
          migrated.push(`${next.from}->${next.to}`);
        }
      }
    } finally {
      await lock.release();
    }
  }
}

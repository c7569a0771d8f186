// Runs one layout migration while holding the migration lock: each of its steps once (a step finished
// by an earlier, interrupted run is skipped, with a log line saying so), then moves the layout version
// and forgets the step markers in one script, only if the lock is still held.
import type { Logger } from "../../observability/logger.ts";
import type { Keys } from "../keys.ts";
import { LuaScript } from "../lua-script.ts";
import type { RedisClient } from "../redis-client.ts";
import {
  DEFAULT_LAYOUT_SETTINGS,
  type LayoutMigration,
  type LayoutSettings,
  type MigrationContext,
} from "./migration.ts";
import type { MigrationLock } from "./migration-lock.ts";

const setLayoutVersion = new LuaScript("set-layout-version-3.lua", 3);

export async function runMigration(
  redis: RedisClient,
  keys: Keys,
  logger: Logger,
  lock: MigrationLock,
  migration: LayoutMigration,
  settings: LayoutSettings = DEFAULT_LAYOUT_SETTINGS,
): Promise<void> {
  const { from, to } = migration;
  const markers = keys.layoutSteps(from, to);
  const log = logger.child({ migration: `${from}->${to}` });
  log.info({ description: migration.description }, `layout migration ${from} -> ${to}: starting`);
  const started = Date.now();
  const ctx: MigrationContext = {
    redis,
    keys,
    settings,
    logger: log,
    step: async (name, body) => {
      lock.assertHeld();
      const doneAt = await redis.hget(markers, name);
      if (doneAt !== null) {
        log.info(
          { step: name, done_at: doneAt },
          `layout migration ${from} -> ${to}: step ${name} already done`,
        );
        return;
      }
      const t0 = Date.now();
      await body();
      lock.assertHeld();
      await redis.hset(markers, name, new Date().toISOString());
      log.info({ step: name, ms: Date.now() - t0 }, `layout migration ${from} -> ${to}: step ${name} done`);
    },
  };
  await migration.run(ctx);
  const moved = await setLayoutVersion.run(
    redis,
    [keys.layoutVersion, lock.key, markers],
    [lock.token, from, to],
  );
  if (moved === -1)
    throw new Error(`layout migration ${from} -> ${to}: the migration lock was lost before the end`);
  if (moved === -2)
    throw new Error(`layout migration ${from} -> ${to}: the layout version changed under the lock`);
  log.info({ ms: Date.now() - started }, `layout migration ${from} -> ${to}: done, layout is now ${to}`);
}

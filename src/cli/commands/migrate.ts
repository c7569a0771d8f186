// `switchyard migrate [--dry-run]`: the boot's layout check, on its own. With --dry-run it says what
// boot would do to the configured prefix (write a first version, run migrations, or refuse) and only
// reads; without, it does it, so an operator can migrate before rolling out the new release.
import type { Command } from "commander";
import { pino } from "pino";
import { ConfigError, loadConfig, resolveConfigPath } from "../../config/load.ts";
import { connectRedis, createCommandRedis } from "../../runtime/redis.ts";
import { Keys } from "../../store/keys.ts";
import { ensureLayout } from "../../store/layout/ensure-layout.ts";
import { LayoutError } from "../../store/layout/layouts.ts";
import { layoutSettingsOf } from "../../store/layout/layout-settings.ts";
import { planLayout } from "../../store/layout/plan-layout.ts";
import type { CommandContext } from "../context.ts";
import { type CliIo, println } from "../io.ts";
import { EXIT } from "../options.ts";

export interface MigrateOptions {
  readonly config?: string;
  readonly dryRun?: boolean;
}

/** A logger printing each line's message alone: the migration's progress, as an operator reads it. */
function progressLogger(io: CliIo): pino.Logger {
  return pino(
    { level: "info" },
    {
      write: (line: string) => {
        println(io.stderr, (JSON.parse(line) as { msg: string }).msg);
      },
    },
  );
}

export async function migrate(file: string | undefined, opts: MigrateOptions, io: CliIo): Promise<number> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(opts.config ?? file ?? resolveConfigPath(io.env), io.env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    println(io.stderr, `switchyard: ${err.message}`);
    return EXIT.config;
  }
  const keys = new Keys(config.redis.prefix);
  const redis = createCommandRedis(config.redis, "switchyard-migrate");
  redis.on("error", () => undefined);
  try {
    await connectRedis(redis, config.redis);
  } catch (err) {
    // It would go on reconnecting, keeping the process alive.
    redis.disconnect();
    println(io.stderr, `switchyard: ${(err as Error).message}`);
    return EXIT.unavailable;
  }
  try {
    const settings = layoutSettingsOf(config);
    const plan = await planLayout(redis, keys, { settings });
    if (opts.dryRun) {
      for (const line of plan.lines) println(io.stdout, line);
      return plan.refused ? EXIT.config : EXIT.ok;
    }
    if (plan.refused) {
      println(io.stderr, `switchyard: ${plan.refused.message}`);
      return EXIT.config;
    }
    const outcome = await ensureLayout(redis, keys, progressLogger(io), { settings });
    const did =
      outcome.migrated.length > 0
        ? `migrated ${outcome.migrated.join(", ")}`
        : outcome.stamped
          ? "wrote the first layout version"
          : "nothing to migrate";
    println(io.stdout, `prefix "${keys.prefix}": layout ${outcome.version} (${did})`);
    return EXIT.ok;
  } catch (err) {
    if (!(err instanceof LayoutError)) throw err;
    println(io.stderr, `switchyard: ${err.message}`);
    return err.exitCode;
  } finally {
    redis.disconnect();
  }
}

export function registerMigrateCommand(program: Command, ctx: CommandContext): void {
  program
    .command("migrate")
    .description("bring the Redis data layout to this release's: write its version, run pending migrations")
    .argument("[file]", "config file (default: $SWITCHYARD_CONFIG, ./switchyard.yaml, else the bundled one)")
    .option("-c, --config <file>", "the config file (instead of FILE)")
    .option("--dry-run", "only say what would change (exit 78 when boot would refuse to start)")
    .action(ctx.action((file: string | undefined, opts: MigrateOptions) => migrate(file, opts, ctx.io)));
}

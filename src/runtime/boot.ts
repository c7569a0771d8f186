// What every entry point does: load and validate the config (exit 78 on a bad one), find Redis
// (optionally starting a private one for development), start the roles, and shut down cleanly on
// SIGTERM/SIGINT within the platform's 30 s grace (a repeated signal: see stop-signals.ts).
import { ConfigError, EX_CONFIG, loadConfig } from "../config/load.ts";
import type { Config } from "../config/schema.ts";
import { createLogger } from "../observability/logger.ts";
import { LayoutError } from "../store/layout/layouts.ts";
import { type DevRedis, reachable, redisServerOnPath, startPrivateRedis } from "./dev-redis.ts";
import { startGateway } from "./gateway.ts";
import { describeRedis, safeRedisUrl } from "./redis.ts";
import { type Role, parseRoles } from "./roles.ts";
import { StopSignals } from "./stop-signals.ts";

export interface BootOptions {
  readonly defaultRoles: readonly Role[];
  /** Start a private redis-server when nothing answers at the configured URL (npm start only). */
  readonly devRedis: boolean;
}

const EXIT_UNAVAILABLE = 69;

export async function boot(opts: BootOptions): Promise<void> {
  let config: Config;
  let roles: Role[];
  try {
    config = loadConfig();
    roles = parseRoles(process.env.SWITCHYARD_ROLES, opts.defaultRoles);
  } catch (err) {
    process.stderr.write(`switchyard: ${(err as Error).message}\n`);
    process.exit(err instanceof ConfigError ? EX_CONFIG : 64);
  }
  const logger = createLogger({ level: config.log_level });

  const hasAdminToken = config.admin.tokens.some((t) => (typeof t === "string" ? t : t.token).length > 0);
  if (!hasAdminToken) {
    logger.warn("no admin token configured: /v1 and /admin answer 401 (set SWITCHYARD_ADMIN_TOKEN)");
  }

  let devRedis: DevRedis | undefined;
  const seeds = config.redis.cluster?.nodes ?? [config.redis.url];
  const answers = await Promise.all(seeds.map((url) => reachable(url)));
  if (!answers.includes(true)) {
    // A private Redis stands in for a single one only: a configured cluster is never replaced.
    if (opts.devRedis && !config.redis.cluster && redisServerOnPath()) {
      devRedis = await startPrivateRedis();
      logger.warn(
        { configured: safeRedisUrl(config.redis.url), private: devRedis.url },
        "nothing answers at the configured Redis URL: started a private, non-persistent redis-server for development",
      );
      config = { ...config, redis: { ...config.redis, url: devRedis.url } };
    } else {
      process.stderr.write(
        `switchyard: cannot reach ${describeRedis(config.redis)}. Start Redis or set REDIS_URL.\n`,
      );
      process.exit(EXIT_UNAVAILABLE);
    }
  }

  const gateway = await startGateway(config, { roles, logger }).catch(async (err: Error) => {
    if (err instanceof LayoutError) {
      // Nothing was written: say why in one line and exit as for a bad config.
      process.stderr.write(`switchyard: ${err.message}\n`);
      await devRedis?.stop();
      process.exit(err.exitCode);
    }
    logger.fatal({ err: err.message }, "could not start");
    await devRedis?.stop();
    process.exit(1);
  });

  // A process without the API has no "listening" line: say it is up all the same.
  if (gateway.port === undefined) logger.info({ roles }, "switchyard running");

  const stopSignals = new StopSignals();
  const shutdown = (signal: "SIGTERM" | "SIGINT"): void => {
    const action = stopSignals.receive(signal);
    if (action === "ignore") {
      logger.info({ signal }, "already shutting down: repeated stop signal ignored");
      return;
    }
    if (action === "force") {
      logger.warn({ signal }, "interrupted again: exiting before the drain finished");
      process.exit(1);
    }
    logger.info({ signal }, "shutting down");
    void gateway
      .stop()
      .then(() => devRedis?.stop())
      .then(() => process.exit(0));
  };
  // A rejection nobody awaited (ioredis flushing a closed connection's commands while roles stop) must
  // not turn a clean drain into an exit 1: log it, keep draining.
  process.on("unhandledRejection", (err) =>
    logger.error({ err: err instanceof Error ? err.message : String(err) }, "unhandled rejection"),
  );
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

// What every entry point does: load and validate the config (exit 78 on a bad one), find Redis
// (in development, starting a private one if none answers), start the roles, and shut down cleanly on
// SIGTERM/SIGINT within the platform's 30 s grace (a repeated signal: see stop-signals.ts). A start
// that fails ends with one line naming the cause (boot-failure.ts).
import { loadConfig, resolveConfigPath } from "../config/load.ts";
import type { Config } from "../config/schema.ts";
import { LogOutput } from "../observability/log-output.ts";
import { createLogger } from "../observability/logger.ts";
import { EX_UNAVAILABLE, describeBootFailure, exitBoot, guardBoot } from "./boot-failure.ts";
import { type DevRedis, reachable, redisServerOnPath, startPrivateRedis } from "./dev-redis.ts";
import { watchParent, withDevelopmentDefaults } from "./development.ts";
import { startGateway } from "./gateway.ts";
import { describeRedis, safeRedisUrl } from "./redis.ts";
import { type Role, parseRoles } from "./roles.ts";
import { StopSignals } from "./stop-signals.ts";

export interface BootOptions {
  readonly defaultRoles: readonly Role[];
  /**
   * `npm start`, the sources in development: a private throwaway Redis when none answers, a generated
   * admin token, loopback endpoints on the bundled config, and a stop when the parent process exits.
   */
  readonly development: boolean;
}

/** Is this entry point the TypeScript source (run through tsx) rather than the compiled build? */
export function runningFromSource(entryUrl: string): boolean {
  return entryUrl.endsWith(".ts");
}

export async function boot(opts: BootOptions): Promise<void> {
  let config: Config;
  let roles: Role[];
  const configPath = resolveConfigPath();
  try {
    config = loadConfig(configPath);
    roles = parseRoles(process.env.SWITCHYARD_ROLES, opts.defaultRoles);
  } catch (err) {
    const failure = describeBootFailure(err);
    // A bad SWITCHYARD_ROLES is a usage error (64), not a config file's.
    exitBoot(failure.code === 1 ? { line: (err as Error).message, code: 64 } : failure);
  }
  // Lines leave on the thread pool, never in the loop's way; a stop waits until all have (log-output.ts).
  const output = new LogOutput();
  const logger = createLogger({ level: config.log_level, destination: output });
  output.onCaughtUp((dropped) =>
    logger.warn({ dropped }, "log lines dropped: stdout was read more slowly than this process logs"),
  );
  const guard = guardBoot(logger);

  if (opts.development) config = withDevelopmentDefaults(config, configPath, logger);
  const hasAdminToken = config.admin.tokens.some((t) => (typeof t === "string" ? t : t.token).length > 0);
  if (!hasAdminToken) {
    logger.warn("no admin token configured: /v1 and /admin answer 401 (set SWITCHYARD_ADMIN_TOKEN)");
  }

  let devRedis: DevRedis | undefined;
  const seeds = config.redis.cluster?.nodes ?? [config.redis.url];
  const answers = await Promise.all(seeds.map((url) => reachable(url)));
  if (!answers.includes(true)) {
    // A private Redis stands in for a single one only: a configured cluster is never replaced.
    if (opts.development && !config.redis.cluster && redisServerOnPath()) {
      devRedis = await startPrivateRedis({ dieWithParent: true });
      logger.warn(
        { configured: safeRedisUrl(config.redis.url), private: devRedis.url },
        "nothing answers at the configured Redis URL: started a private redis-server for development; its data is throwaway, gone when this process stops",
      );
      config = { ...config, redis: { ...config.redis, url: devRedis.url } };
    } else {
      exitBoot({
        line: `cannot reach ${describeRedis(config.redis)}. Start Redis or set REDIS_URL.`,
        code: EX_UNAVAILABLE,
      });
    }
  }

  const gateway = await startGateway(config, {
    roles,
    logger,
    logOutput: output,
    onStartFailure: () => guard.failing(),
  }).catch(async (err: unknown) => {
    await devRedis?.stop();
    return exitBoot(describeBootFailure(err));
  });
  guard.release();

  // A process without the API has no "listening" line: say it is up all the same.
  if (gateway.port === undefined) logger.info({ roles }, "switchyard running");

  const stopSignals = new StopSignals();
  // Set once a drain has begun: the code the process exits with when it ends.
  let exitCode: 0 | 1 | undefined;
  const drain = (code: 0 | 1): void => {
    exitCode ??= code;
    void gateway
      .stop()
      .then(() => devRedis?.stop())
      // Every line logged until now is written before the exit (the platform's SIGKILL bounds a stuck reader).
      .then(() => output.drained())
      .then(() => process.exit(exitCode));
  };
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
    drain(0);
  };
  // A promise nobody awaited failed: a bug whose effects are unknown. While running, the process drains
  // (in-flight attempts finish or are handed back) and exits 1, so the platform restarts a clean one;
  // all state is in Redis. During a drain it is logged and the drain goes on, its exit code unchanged.
  process.on("unhandledRejection", (err) => {
    const e = err instanceof Error ? err : new Error(String(err));
    const draining = exitCode !== undefined;
    logger.error({ err: e.message, stack: e.stack, draining }, "unhandled rejection");
    if (!draining) drain(1);
  });
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
  if (opts.development)
    watchParent(() => {
      logger.info("the process that started this one has exited: shutting down");
      shutdown("SIGTERM");
    });
}

// What `npm start` (the sources, in development) adds to a boot, so the README's paths work on a fresh
// clone: an admin token when none is configured (printed once), loopback endpoints allowed on the
// bundled config (the outbound quick-start's receiver runs on this machine), and a process that stops
// when whoever started it (npm, a shell) is gone. The compiled entry points do none of this.
import { randomBytes } from "node:crypto";
import { BUNDLED_CONFIG } from "../config/load.ts";
import type { Config } from "../config/schema.ts";
import type { Logger } from "../observability/logger.ts";

const PARENT_CHECK_MS = 500;

function hasToken(config: Config): boolean {
  return config.admin.tokens.some((t) => (typeof t === "string" ? t : t.token).length > 0);
}

export function withDevelopmentDefaults(config: Config, configPath: string, logger: Logger): Config {
  let admin = config.admin;
  if (!hasToken(config)) {
    const token = `dev_${randomBytes(16).toString("hex")}`;
    admin = { ...config.admin, tokens: [token] };
    logger.warn(
      `development: no admin token configured, generated one for this run: export SWITCHYARD_ADMIN_TOKEN=${token}`,
    );
  }
  let outbound = config.outbound;
  if (configPath === BUNDLED_CONFIG && !outbound.allow_private) {
    outbound = { ...outbound, allow_private: true };
    logger.warn(
      "development: bundled config, so outbound.allow_private is on: endpoints on loopback and private addresses are accepted",
    );
  }
  return { ...config, admin, outbound };
}

/**
 * Call `onGone` once the process that started this one has exited (its parent pid changes when it is
 * re-parented). `kill <npm pid>` ends npm's shell, not its grandchild: without this the gateway and its
 * private Redis lived on.
 */
export function watchParent(onGone: () => void): void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onGone();
  }, PARENT_CHECK_MS);
  timer.unref();
}

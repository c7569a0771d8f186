// Reads, interpolates, parses and validates the config at boot. Errors name the key path so an
// operator can fix the file without reading our source; callers exit 78 (EX_CONFIG) on ConfigError.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { z } from "zod";
import { type EnvDefault, applyEnvDefaults, envSourceOf } from "./env-defaults.ts";
import { InterpolationError, parseInterpolated } from "./interpolate.ts";
import { type Config, configSchema } from "./schema.ts";
import { unknownKeyMessages } from "./unknown-keys.ts";

export const EX_CONFIG = 78;

export class ConfigError extends Error {
  constructor(
    message: string,
    readonly file: string,
    readonly issues: readonly string[] = [],
  ) {
    super(issues.length > 0 ? `${message}\n${issues.map((i) => `  - ${i}`).join("\n")}` : message);
  }
}

/** The config that ships with Switchyard: a `demo` source with no verification, delivering to the log sink. */
export const BUNDLED_CONFIG = fileURLToPath(new URL("../../config/default.yaml", import.meta.url));

/** Which file to read: `SWITCHYARD_CONFIG`, else ./switchyard.yaml if present, else the bundled default. */
export function resolveConfigPath(env: Readonly<Record<string, string | undefined>> = process.env): string {
  if (env.SWITCHYARD_CONFIG) return env.SWITCHYARD_CONFIG;
  if (existsSync("switchyard.yaml")) return "switchyard.yaml";
  return BUNDLED_CONFIG;
}

/** A key path as an operator writes it: `sinks.out.url`, `admin.tokens[0]`. */
export function formatPath(path: readonly PropertyKey[]): string {
  return (
    path.map((p, i) => (typeof p === "number" ? `[${p}]` : `${i === 0 ? "" : "."}${String(p)}`)).join("") ||
    "(root)"
  );
}

function formatIssues(error: z.ZodError, fromEnv: readonly EnvDefault[]): string[] {
  return error.issues.flatMap((issue) => {
    // One issue names every unknown key of an object: one line each, at the key's own path.
    if (issue.code === "unrecognized_keys") {
      const messages = unknownKeyMessages(issue.keys, issue.message);
      return issue.keys.map((key, i) => `${formatPath([...issue.path, key])}: ${messages[i] ?? ""}`);
    }
    const variable = envSourceOf(issue.path, fromEnv);
    const origin = variable === undefined ? "" : ` (from environment variable ${variable})`;
    return [`${formatPath(issue.path)}: ${issue.message}${origin}`];
  });
}

/**
 * Parse and validate config text; `file` is only used in messages. `env` feeds `${VAR}` references
 * and the keys the file omits that a platform sets (PORT, REDIS_URL, LOG_LEVEL).
 */
export function parseConfig(
  text: string,
  file: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Config {
  let doc: ReturnType<typeof parseInterpolated>;
  try {
    doc = parseInterpolated(text, env);
  } catch (err) {
    if (err instanceof InterpolationError) throw new ConfigError(`${file}: ${err.message}`, file);
    throw err;
  }
  if (doc.errors.length > 0) {
    throw new ConfigError(
      `${file}: not valid YAML`,
      file,
      doc.errors.map((e) => e.message),
    );
  }
  const filled = applyEnvDefaults(doc.toJS() ?? {}, env);
  const result = configSchema().safeParse(filled.doc);
  if (!result.success) {
    throw new ConfigError(`${file}: invalid config`, file, formatIssues(result.error, filled.applied));
  }
  return result.data;
}

export function loadConfig(
  path: string = resolveConfigPath(),
  env: Readonly<Record<string, string | undefined>> = process.env,
): Config {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new ConfigError(
      `${path}: cannot read config (${(err as NodeJS.ErrnoException).code ?? "error"})`,
      path,
    );
  }
  return parseConfig(text, path, env);
}

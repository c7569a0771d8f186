// `check-config` and `print-config`: the same loader and validation as boot, without starting anything,
// so an operator can check a file in CI (warnings included) or paste the effective config (secrets
// masked) into a ticket.
import type { Command } from "commander";
import { stringify } from "yaml";
import { ConfigError, loadConfig, resolveConfigPath } from "../../config/load.ts";
import { redact } from "../../config/redact.ts";
import { configWarnings } from "../../config/warnings.ts";
import { ALL_ROLES, type Role, parseRoles } from "../../runtime/roles.ts";
import type { CommandContext } from "../context.ts";
import { type CliIo, println } from "../io.ts";
import { EXIT, UsageError } from "../options.ts";

/** The Procfile's worker: named in a note when the default check leaves out what it would be warned about. */
const WORKER_ROLES: readonly Role[] = ["dispatch", "recovery"];

const warningsFor = (config: ReturnType<typeof loadConfig>, roles: readonly Role[]) =>
  configWarnings(config, { api: roles.includes("api"), dispatch: roles.includes("dispatch") });

function load(
  file: string | undefined,
  io: CliIo,
): { path: string; config: ReturnType<typeof loadConfig> } | number {
  const path = file ?? resolveConfigPath(io.env);
  try {
    return { path, config: loadConfig(path, io.env) };
  } catch (err) {
    if (err instanceof ConfigError) {
      println(io.stderr, `switchyard: ${err.message}`);
      return EXIT.config;
    }
    throw err;
  }
}

export interface CheckOptions {
  /** Comma-separated roles of the process to check for. */
  readonly roles?: string;
  /** Warnings fail the check (exit 78). */
  readonly strict?: boolean;
}

/**
 * Validate and print warnings for the process that will run the config: --roles, else SWITCHYARD_ROLES,
 * else every role (what `npm start` and the image's default entry point run when neither says).
 */
export function checkConfig(file: string | undefined, opts: CheckOptions, io: CliIo): number {
  let roles: Role[];
  const chosen = opts.roles ?? io.env.SWITCHYARD_ROLES;
  try {
    roles = parseRoles(chosen, ALL_ROLES);
  } catch (err) {
    throw new UsageError(
      (err as Error).message.replace(/^SWITCHYARD_ROLES/, opts.roles ? "--roles" : "SWITCHYARD_ROLES"),
    );
  }
  const loaded = load(file, io);
  if (typeof loaded === "number") return loaded;
  const { path, config } = loaded;
  const sources = Object.keys(config.sources).length;
  const sinks = Object.keys(config.sinks).length;
  println(
    io.stdout,
    `ok: ${path} is valid (${sources} source${sources === 1 ? "" : "s"}, ${sinks} sink${sinks === 1 ? "" : "s"})`,
  );
  const warnings = warningsFor(config, roles);
  for (const w of warnings) println(io.stderr, `warning: ${w.path}: ${w.message}`);
  if (warnings.length > 0)
    println(io.stderr, `(checked for a process with roles ${roles.join(",")}; --roles picks another)`);
  // Nobody said which process: a deployment split like the Procfile's would be warned about more.
  const forWorker = chosen === undefined || chosen.trim() === "" ? warningsFor(config, WORKER_ROLES) : [];
  if (forWorker.length > warnings.length)
    println(
      io.stderr,
      `note: checked for a process with roles ${roles.join(",")}; with --roles ${WORKER_ROLES.join(",")} ` +
        `(the Procfile's worker) it warns about ${forWorker.map((w) => w.path).join(", ")}`,
    );
  return opts.strict && warnings.length > 0 ? EXIT.config : EXIT.ok;
}

export function printConfig(file: string | undefined, json: boolean, io: CliIo): number {
  const loaded = load(file, io);
  if (typeof loaded === "number") return loaded;
  const safe = redact(loaded.config);
  io.stdout.write(
    json
      ? `${JSON.stringify(safe, null, 2)}\n`
      : `# ${loaded.path} (effective, secrets redacted)\n${stringify(safe)}`,
  );
  return EXIT.ok;
}

const FILE_HELP = "config file (default: $SWITCHYARD_CONFIG, ./switchyard.yaml, else the bundled one)";

export function registerConfigCommands(program: Command, ctx: CommandContext): void {
  program
    .command("check-config")
    .description("validate the config as boot does, and print its warnings")
    .argument("[file]", FILE_HELP)
    .option("-c, --config <file>", "the config file (instead of FILE)")
    .option(
      "--roles <list>",
      "check for a process with these roles (api,dispatch,recovery; default: $SWITCHYARD_ROLES, else all of them, as npm start runs)",
    )
    .option("--strict", "exit 78 when there are warnings")
    .action(
      ctx.action((file: string | undefined, opts: CheckOptions & { config?: string }) =>
        checkConfig(opts.config ?? file, opts, ctx.io),
      ),
    );

  program
    .command("print-config")
    .description("print the effective config, secrets redacted")
    .argument("[file]", FILE_HELP)
    .option("-c, --config <file>", "the config file (instead of FILE)")
    .option("--json", "as JSON instead of YAML")
    .action(
      ctx.action((file: string | undefined, opts: { config?: string; json?: boolean }) =>
        printConfig(opts.config ?? file, opts.json === true, ctx.io),
      ),
    );
}

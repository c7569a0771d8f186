// `switchyard start`, `switchyard web`, `switchyard worker`: run the gateway's roles in this process,
// from wherever the package is installed, as workers/main.ts, web.ts and worker.ts do from a checkout.
// --config and --roles are SWITCHYARD_CONFIG and SWITCHYARD_ROLES, the variables boot reads, so a
// flag and a platform's environment mean the same thing. Never starts a private Redis.
import { resolve } from "node:path";
import type { Command } from "commander";
import { ALL_ROLES, type Role, parseRoles } from "../../runtime/roles.ts";
import type { CommandContext } from "../context.ts";
import { EXIT, UsageError } from "../options.ts";

interface StartOptions {
  readonly config?: string;
  readonly roles?: string;
}

async function start(defaultRoles: readonly Role[], opts: StartOptions): Promise<number> {
  if (opts.roles !== undefined) {
    try {
      parseRoles(opts.roles, defaultRoles);
    } catch (err) {
      throw new UsageError((err as Error).message.replace(/^SWITCHYARD_ROLES/, "--roles"));
    }
    process.env.SWITCHYARD_ROLES = opts.roles;
  }
  if (opts.config !== undefined) process.env.SWITCHYARD_CONFIG = resolve(opts.config);
  // Loaded here, not with the CLI: the admin commands do not need the whole gateway.
  const { boot } = await import("../../runtime/boot.ts");
  // boot exits the process itself on a bad config, an unreachable Redis, a refused layout and on stop.
  await boot({ defaultRoles, development: false });
  return EXIT.ok;
}

function addStart(
  program: Command,
  ctx: CommandContext,
  name: string,
  roles: readonly Role[],
  what: string,
): void {
  const cmd = program
    .command(name)
    .description(what)
    .option(
      "-c, --config <file>",
      "the config file (default: $SWITCHYARD_CONFIG, ./switchyard.yaml, else the bundled one)",
    );
  if (name === "start")
    cmd.option(
      "--roles <list>",
      `comma-separated roles (${ALL_ROLES.join(",")}; default: $SWITCHYARD_ROLES, else all)`,
    );
  cmd.action(ctx.action((opts: StartOptions) => start(roles, opts)));
}

export function registerStartCommands(program: Command, ctx: CommandContext): void {
  addStart(
    program,
    ctx,
    "start",
    ALL_ROLES,
    "run the gateway: every role in one process, or those --roles names",
  );
  addStart(program, ctx, "web", ["api"], "run the API role (ingest, admin, metrics), as the Procfile's web");
  addStart(
    program,
    ctx,
    "worker",
    ["dispatch", "recovery"],
    "run the delivery workers and recovery, as the Procfile's worker",
  );
}

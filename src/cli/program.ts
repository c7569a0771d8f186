// The `switchyard` command tree on commander: every command, its options and its --help. Commands
// register themselves from src/cli/commands/; this module holds what they share (the global --url,
// where output goes, how parse errors are reported).
import { Command } from "commander";
import { registerConfigCommands } from "./commands/config.ts";
import { registerDlqCommands } from "./commands/dlq.ts";
import { registerHookCommands } from "./commands/hooks.ts";
import { registerIncidentCommands } from "./commands/incident.ts";
import { registerMigrateCommand } from "./commands/migrate.ts";
import { registerStartCommands } from "./commands/start.ts";
import { commandContext } from "./context.ts";
import type { CliIo } from "./io.ts";

const AFTER_HELP = `
Admin commands call the API at $SWITCHYARD_URL (default http://127.0.0.1:3000) with the bearer
token in $SWITCHYARD_ADMIN_TOKEN; --url overrides the address. Every command has --help.

Exit codes: 0 ok, 1 failed, 64 usage error, 69 API or Redis unreachable, 77 token refused,
78 config invalid or data layout refused.`;

/** The program, writing to `io`; `setExit` receives the exit code of the command that ran. */
export function buildProgram(io: CliIo, setExit: (code: number) => void): Command {
  const program = new Command("switchyard")
    .description(
      "Switchyard webhook gateway: run its roles, migrate its data layout, check its config, inspect and replay dead deliveries, watch breakers.",
    )
    .option("--url <url>", "admin API address (overrides $SWITCHYARD_URL)")
    // Settings before the subcommands: commander copies them into each one as it is created.
    .exitOverride()
    .configureOutput({
      writeOut: (s) => void io.stdout.write(s),
      writeErr: (s) => void io.stderr.write(s),
      outputError: (s, write) => write(`switchyard: ${s.replace(/^error: /, "")}`),
    })
    // A parse error is followed by the usage of the command it was made on.
    .showHelpAfterError(true)
    .addHelpText("after", AFTER_HELP);
  const ctx = commandContext(io, setExit);
  registerConfigCommands(program, ctx);
  registerDlqCommands(program, ctx);
  registerHookCommands(program, ctx);
  registerIncidentCommands(program, ctx);
  registerMigrateCommand(program, ctx);
  registerStartCommands(program, ctx);
  return program;
}

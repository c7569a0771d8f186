// The `switchyard` CLI as a function of argv and its I/O, returning the exit code; main.ts wires it
// to the real process. Errors the user can act on are printed as one line, never as a stack trace.
import { CommanderError } from "commander";
import { CliError } from "./admin-client.ts";
import type { CliIo } from "./io.ts";
import { println } from "./io.ts";
import { EXIT, UsageError } from "./options.ts";
import { buildProgram } from "./program.ts";

/** Run the CLI; resolves with the exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let code: number = EXIT.ok;
  const program = buildProgram(io, (c) => (code = c));
  try {
    // No command at all: the overview, as `--help` shows it.
    await program.parseAsync(argv.length === 0 ? ["--help"] : [...argv], { from: "user" });
    return code;
  } catch (err) {
    if (err instanceof CommanderError) {
      // commander has printed what to say: help on request (exit code 0), or an error; a group without
      // its subcommand (`switchyard dlq`) printed its help as the error.
      return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (err instanceof UsageError) {
      println(io.stderr, `switchyard: ${err.message}`);
      return EXIT.usage;
    }
    if (err instanceof CliError) {
      println(io.stderr, `switchyard: ${err.message}`);
      return err.exitCode;
    }
    println(io.stderr, `switchyard: ${(err as Error).message}`);
    return EXIT.failure;
  }
}

// The `switchyard` CLI as a function of argv and its I/O, returning the exit code; main.ts wires it
// to the real process. Errors the user can act on are printed as one line, never as a stack trace.
import { AdminClient, CliError, DEFAULT_URL } from "./admin-client.ts";
import { type Command, EXIT, USAGE, UsageError, parseCommand } from "./args.ts";
import { dlqList, dlqReplay, hooksShow } from "./commands/admin.ts";
import { checkConfig, printConfig } from "./commands/config.ts";
import { type CliIo, println } from "./io.ts";

async function execute(command: Command, url: string | undefined, io: CliIo): Promise<number> {
  const client = (): AdminClient =>
    new AdminClient({
      url: url ?? io.env.SWITCHYARD_URL ?? DEFAULT_URL,
      token: io.env.SWITCHYARD_ADMIN_TOKEN,
      ...(io.fetch ? { fetch: io.fetch } : {}),
    });
  switch (command.kind) {
    case "help":
      println(io.stdout, USAGE);
      return EXIT.ok;
    case "check-config":
      return checkConfig(command.file, io);
    case "print-config":
      return printConfig(command.file, command.json, io);
    case "dlq-list":
      return dlqList(client(), command, io);
    case "dlq-replay":
      return dlqReplay(client(), command, io);
    case "hooks-show":
      return hooksShow(client(), command, io);
  }
}

/** Run the CLI; resolves with the exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const { command, url } = parseCommand(argv);
    return await execute(command, url, io);
  } catch (err) {
    if (err instanceof UsageError) {
      println(io.stderr, `switchyard: ${err.message}\n\n${USAGE}`);
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

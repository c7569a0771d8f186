// What every command registration gets: the I/O to write to, the admin API client for the command
// being run, and the way to hand back its exit code (commander's actions return nothing).
import { Command } from "commander";
import { AdminClient, DEFAULT_URL } from "./admin-client.ts";
import { type CliIo, println } from "./io.ts";
import { EXIT, UsageError } from "./options.ts";

export interface CommandContext {
  readonly io: CliIo;
  /** The admin API client: `--url`, else $SWITCHYARD_URL, with the token in $SWITCHYARD_ADMIN_TOKEN. */
  client(cmd: Command): AdminClient;
  /**
   * Wrap a command's body: its resolved number is the process exit code; a UsageError it throws is
   * shown with the command's usage, like commander's own parse errors.
   */
  action<A extends unknown[]>(body: (...args: A) => Promise<number> | number): (...args: A) => Promise<void>;
}

export function commandContext(io: CliIo, setExit: (code: number) => void): CommandContext {
  return {
    io,
    client: (cmd) =>
      new AdminClient({
        url: (cmd.optsWithGlobals() as { url?: string }).url ?? io.env.SWITCHYARD_URL ?? DEFAULT_URL,
        token: io.env.SWITCHYARD_ADMIN_TOKEN,
        ...(io.fetch ? { fetch: io.fetch } : {}),
      }),
    action:
      (body) =>
      async (...args) => {
        try {
          setExit(await body(...args));
        } catch (err) {
          const cmd = args[args.length - 1];
          if (!(err instanceof UsageError) || !(cmd instanceof Command)) throw err;
          println(io.stderr, `switchyard: ${err.message}`);
          cmd.outputHelp({ error: true });
          setExit(EXIT.usage);
        }
      },
  };
}

// `hooks show ID`: a hook's metadata and where each of its deliveries stands.
import type { Command } from "commander";
import type { AdminClient } from "../admin-client.ts";
import type { CommandContext } from "../context.ts";
import { type HookJson, hookDetails } from "../format.ts";
import { type CliIo, println } from "../io.ts";
import { EXIT } from "../options.ts";

export async function hooksShow(
  client: AdminClient,
  cmd: { id: string; body: boolean; json: boolean },
  io: CliIo,
): Promise<number> {
  const hook: HookJson = await client.run((c) => c.hooks.get(cmd.id, { body: cmd.body }));
  println(io.stdout, cmd.json ? JSON.stringify(hook, null, 2) : hookDetails(hook));
  return EXIT.ok;
}

export function registerHookCommands(program: Command, ctx: CommandContext): void {
  program
    .command("hooks")
    .description("inspect received hooks")
    .command("show")
    .description("a hook's metadata and per-sink delivery state")
    .argument("<id>", "hook id (hk_…)")
    .option("--body", "print the body too (as text when printable, else base64)")
    .option("--json", "the API's JSON instead of a table")
    .action(
      ctx.action((id: string, opts: { body?: boolean; json?: boolean }, cmd: Command) =>
        hooksShow(ctx.client(cmd), { id, body: opts.body === true, json: opts.json === true }, ctx.io),
      ),
    );
}

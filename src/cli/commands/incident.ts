// The commands an operator reaches for in an incident: see and steer replays, list the outbound
// endpoints, and see which breakers are open. Thin calls to the admin API; rendering is in
// format-incident.ts.
import { type Command, Option } from "commander";
import type { Replay } from "../../../packages/client/src/client.ts";
import type { CommandContext } from "../context.ts";
import {
  type BreakersJson,
  type EndpointJson,
  type ReplayListJson,
  breakersText,
  endpointTable,
  replayLine,
  replayTable,
} from "../format-incident.ts";
import { println } from "../io.ts";
import { EXIT, addPaging, replayId } from "../options.ts";

interface Page<T> {
  readonly data: readonly T[];
  readonly next_cursor: string | null;
}

interface ListOptions {
  readonly limit?: number;
  readonly cursor?: string;
  readonly json?: boolean;
}

/** Print a page as JSON or as `render` has it, with the next page's command on stderr. */
function printPage<T>(
  ctx: CommandContext,
  page: Page<T>,
  opts: ListOptions,
  render: (items: readonly T[]) => string,
  again: string,
): number {
  if (opts.json) {
    println(ctx.io.stdout, JSON.stringify(page, null, 2));
    return EXIT.ok;
  }
  println(ctx.io.stdout, render(page.data));
  if (page.next_cursor) println(ctx.io.stderr, `more: switchyard ${again} … --cursor ${page.next_cursor}`);
  return EXIT.ok;
}

/** The client's steering calls: pause (→ paused), resume (→ running), cancel (→ cancelled). */
const STEER = [
  ["pause", "stop moving entries (resume carries on where it stopped)"],
  ["resume", "carry on with a paused replay"],
  ["cancel", "end a replay for good (entries not yet moved stay in the DLQ)"],
] as const;

function registerReplays(program: Command, ctx: CommandContext): void {
  const replays = program.command("replays").description("list, watch and steer DLQ replays");

  addPaging(replays.command("list").description("replays, newest first"), 1000)
    .addOption(
      new Option("--state <state>", "only replays in this state").choices([
        "running",
        "paused",
        "done",
        "cancelled",
      ]),
    )
    .option("--json", "the API's JSON page instead of a table")
    .action(
      ctx.action(async (opts: ListOptions & { state?: string }, cmd: Command) => {
        const page: Page<ReplayListJson> = await ctx.client(cmd).run((c) =>
          c.replays.list({
            state: opts.state as Replay["state"] | undefined,
            limit: opts.limit,
            cursor: opts.cursor,
          }),
        );
        return printPage(ctx, page, opts, replayTable, "replays list");
      }),
    );

  replays
    .command("show")
    .description("one replay's progress")
    .argument("<id>", "replay id (rp_…)", replayId)
    .option("--json", "the API's JSON")
    .action(
      ctx.action(async (id: string, opts: { json?: boolean }, cmd: Command) => {
        const replay: ReplayListJson = await ctx.client(cmd).run((c) => c.replays.get(id));
        println(ctx.io.stdout, opts.json ? JSON.stringify(replay, null, 2) : replayTable([replay]));
        return EXIT.ok;
      }),
    );

  for (const [verb, description] of STEER) {
    replays
      .command(verb)
      .description(description)
      .argument("<id>", "replay id (rp_…)", replayId)
      .option("--json", "print the replay as JSON")
      .action(
        ctx.action(async (id: string, opts: { json?: boolean }, cmd: Command) => {
          const replay: ReplayListJson = await ctx.client(cmd).run((c) => c.replays[verb](id));
          println(ctx.io.stdout, opts.json ? JSON.stringify(replay, null, 2) : replayLine(replay));
          return EXIT.ok;
        }),
      );
  }
}

function registerEndpoints(program: Command, ctx: CommandContext): void {
  addPaging(
    program
      .command("endpoints")
      .description("outbound endpoints")
      .command("list")
      .description("outbound endpoints in creation order, without secrets"),
    1000,
  )
    .option("--tenant <name>", "only this tenant's endpoints")
    .option("--json", "the API's JSON page instead of a table")
    .action(
      ctx.action(async (opts: ListOptions & { tenant?: string }, cmd: Command) => {
        const page: Page<EndpointJson> = await ctx
          .client(cmd)
          .run((c) => c.endpoints.list({ tenant: opts.tenant, limit: opts.limit, cursor: opts.cursor }));
        return printPage(ctx, page, opts, endpointTable, "endpoints list");
      }),
    );
}

function registerBreakers(program: Command, ctx: CommandContext): void {
  program
    .command("breakers")
    .description(
      "circuit breakers: every sink's (per worker process), and the endpoints' that are not closed",
    )
    .option("--json", "the API's JSON")
    .action(
      ctx.action(async (opts: { json?: boolean }, cmd: Command) => {
        const breakers: BreakersJson = await ctx.client(cmd).run((c) => c.breakers.list());
        println(ctx.io.stdout, opts.json ? JSON.stringify(breakers, null, 2) : breakersText(breakers));
        return EXIT.ok;
      }),
    );
}

export function registerIncidentCommands(program: Command, ctx: CommandContext): void {
  registerReplays(program, ctx);
  registerEndpoints(program, ctx);
  registerBreakers(program, ctx);
}

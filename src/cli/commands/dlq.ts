// `dlq list` and `dlq replay` (with a progress bar until the replay ends): one or a few calls to the
// admin API each; rendering lives in format.ts.
import cliProgress from "cli-progress";
import { type Command, Option } from "commander";
import type { AdminClient } from "../admin-client.ts";
import type { CommandContext } from "../context.ts";
import { type DlqEntryJson, type ReplayJson, dlqTable, replaySummary } from "../format.ts";
import { type CliIo, println } from "../io.ts";
import {
  type DlqFilterArgs,
  EXIT,
  UsageError,
  addDlqFilters,
  addPaging,
  filterOf,
  positiveInt,
} from "../options.ts";

export async function dlqList(
  client: AdminClient,
  cmd: { filter: DlqFilterArgs; limit?: number; cursor?: string; json: boolean },
  io: CliIo,
): Promise<number> {
  const page: { data: DlqEntryJson[]; next_cursor: string | null } = await client.run((c) =>
    c.dlq.list({ ...cmd.filter, limit: cmd.limit, cursor: cmd.cursor }),
  );
  if (cmd.json) {
    println(io.stdout, JSON.stringify(page, null, 2));
    return EXIT.ok;
  }
  println(io.stdout, dlqTable(page.data));
  if (page.next_cursor) println(io.stderr, `more: switchyard dlq list … --cursor ${page.next_cursor}`);
  return EXIT.ok;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function dlqReplay(
  client: AdminClient,
  cmd: { filter: DlqFilterArgs; ids: readonly string[]; rate?: number; wait: boolean; json: boolean },
  io: CliIo,
): Promise<number> {
  const started = Date.now();
  const body = {
    filter: { ...cmd.filter, ...(cmd.ids.length > 0 ? { ids: [...cmd.ids] } : {}) },
    ...(cmd.rate !== undefined ? { rate_per_s: cmd.rate } : {}),
  };
  let replay: ReplayJson = await client.run((c) => c.replays.create(body));
  if (!cmd.wait) {
    println(
      io.stdout,
      cmd.json
        ? JSON.stringify(replay, null, 2)
        : `replay ${replay.id} started (${replay.total_estimate} entries at most)`,
    );
    return EXIT.ok;
  }
  if (!cmd.json)
    println(io.stderr, `replay ${replay.id} started; Ctrl-C stops watching (the replay goes on)`);
  const bar =
    io.stderr.isTTY && !cmd.json
      ? new cliProgress.SingleBar(
          {
            stream: io.stderr,
            format:
              "replaying [{bar}] {value}/{total} | moved {moved} failed {failed} | {eta_formatted} left",
            hideCursor: true,
          },
          cliProgress.Presets.shades_classic,
        )
      : undefined;
  bar?.start(Math.max(1, replay.total_estimate), 0, { moved: 0, failed: 0 });
  const stopWatching = (): void => {
    bar?.stop();
    println(
      io.stderr,
      `stopped watching; replay ${replay.id} continues (switchyard dlq replay is not cancelled)`,
    );
    process.exit(130);
  };
  process.once("SIGINT", stopWatching);
  try {
    while (replay.state === "running" || replay.state === "paused") {
      await sleep(io.pollMs ?? 500);
      const id = replay.id;
      replay = await client.run((c) => c.replays.get(id));
      const done = replay.moved + replay.failed;
      bar?.setTotal(Math.max(replay.total_estimate, replay.matched, done, 1));
      bar?.update(done, { moved: replay.moved, failed: replay.failed });
    }
  } finally {
    process.removeListener("SIGINT", stopWatching);
    if (bar) {
      bar.setTotal(Math.max(1, replay.moved + replay.failed));
      bar.update(replay.moved + replay.failed);
      bar.stop();
    }
  }
  println(
    io.stdout,
    cmd.json ? JSON.stringify(replay, null, 2) : replaySummary(replay, (Date.now() - started) / 1000),
  );
  return replay.state === "done" && replay.failed === 0 ? EXIT.ok : EXIT.failure;
}

export function registerDlqCommands(program: Command, ctx: CommandContext): void {
  const dlq = program.command("dlq").description("dead deliveries: list them, replay them");

  addPaging(
    addDlqFilters(dlq.command("list").description("list dead deliveries, newest first (no bodies)")),
    1000,
  )
    .option("--json", "the API's JSON page instead of a table")
    .action(
      ctx.action(
        (
          opts: Parameters<typeof filterOf>[0] & { limit?: number; cursor?: string; json?: boolean },
          cmd: Command,
        ) =>
          dlqList(
            ctx.client(cmd),
            {
              filter: filterOf(opts),
              json: opts.json === true,
              ...(opts.limit === undefined ? {} : { limit: opts.limit }),
              ...(opts.cursor === undefined ? {} : { cursor: opts.cursor }),
            },
            ctx.io,
          ),
      ),
    );

  addDlqFilters(
    dlq
      .command("replay")
      .description("move dead deliveries back to their queues, showing progress until the replay ends"),
  )
    .option("--id <id...>", "these DLQ entries or hooks (repeatable)")
    .addOption(new Option("--rate <n>", "entries per second (default 1000)").argParser(positiveInt("--rate")))
    .option("--all", "the whole DLQ (required when no filter is given)")
    .option("--no-wait", "start the replay and return")
    .option("--json", "print the replay as JSON")
    .action(
      ctx.action(
        (
          opts: Parameters<typeof filterOf>[0] & {
            id?: string[];
            rate?: number;
            all?: boolean;
            wait: boolean;
            json?: boolean;
          },
          cmd: Command,
        ) => {
          const filter = filterOf(opts);
          const ids = opts.id ?? [];
          if (Object.keys(filter).length === 0 && ids.length === 0 && opts.all !== true)
            throw new UsageError(
              "dlq replay: give a filter (--source, --sink, --endpoint, --error-class, --since, --until, --id) or --all to replay the whole DLQ",
            );
          return dlqReplay(
            ctx.client(cmd),
            {
              filter,
              ids,
              wait: opts.wait,
              json: opts.json === true,
              ...(opts.rate === undefined ? {} : { rate: opts.rate }),
            },
            ctx.io,
          );
        },
      ),
    );
}

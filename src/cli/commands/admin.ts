// The admin commands: `dlq list`, `dlq replay` (with a progress bar until the replay ends) and
// `hooks show`. Each is one or a few calls to the admin API; rendering lives in format.ts.
import cliProgress from "cli-progress";
import type { AdminClient } from "../admin-client.ts";
import { type DlqFilterArgs, EXIT } from "../args.ts";
import {
  type DlqEntryJson,
  type HookJson,
  type ReplayJson,
  dlqTable,
  hookDetails,
  replaySummary,
} from "../format.ts";
import { type CliIo, println } from "../io.ts";

function query(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : "";
}

export async function dlqList(
  client: AdminClient,
  cmd: { filter: DlqFilterArgs; limit?: number; cursor?: string; json: boolean },
  io: CliIo,
): Promise<number> {
  const page = await client.call<{ data: DlqEntryJson[]; next_cursor: string | null }>(
    "GET",
    `/v1/dlq${query({ ...cmd.filter, limit: cmd.limit, cursor: cmd.cursor })}`,
  );
  if (cmd.json) {
    println(io.stdout, JSON.stringify(page, null, 2));
    return EXIT.ok;
  }
  println(io.stdout, dlqTable(page.data));
  if (page.next_cursor) println(io.stderr, `more: switchyard dlq list … --cursor ${page.next_cursor}`);
  return EXIT.ok;
}

export async function hooksShow(
  client: AdminClient,
  cmd: { id: string; body: boolean; json: boolean },
  io: CliIo,
): Promise<number> {
  const hook = await client.call<HookJson>(
    "GET",
    `/v1/hooks/${encodeURIComponent(cmd.id)}${cmd.body ? "?include=body" : ""}`,
  );
  println(io.stdout, cmd.json ? JSON.stringify(hook, null, 2) : hookDetails(hook));
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
    filter: { ...cmd.filter, ...(cmd.ids.length > 0 ? { ids: cmd.ids } : {}) },
    ...(cmd.rate !== undefined ? { rate_per_s: cmd.rate } : {}),
  };
  let replay = await client.call<ReplayJson>("POST", "/v1/replays", body);
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
      replay = await client.call<ReplayJson>("GET", `/v1/replays/${replay.id}`);
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

// Log lines written off the event loop (src/observability/log-output.ts), seen from outside the process:
// every line logged before a stop reaches stdout (a SIGTERM drain, a process.exit, an uncaught error),
// and a reader that stops reading neither stalls the loop nor grows the process's memory: lines past the
// buffer are dropped, counted, and reported once the reader is back.
//
// log_slow_reader_unbounded_memory: with pino's default stdout destination (the one before), every line
// a reader had not taken stayed on the heap; run with `--pino-default` the last test fails with
// "expected 32264088 to be less than 16777216" (30 MB of unread lines held, none dropped).
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const CHILD = fileURLToPath(new URL("../support/log-output-child.ts", import.meta.url));
const FLOOD_READ_AFTER_MS = 8000;

interface Run {
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  stdout(): string;
  stderr(): string;
  /** Start reading stdout (a run started `paused` reads nothing until then). */
  read(): void;
  /** Resolves once stderr holds a line matching `re` (undefined after `timeoutMs` or an exit). */
  waitErr(re: RegExp, timeoutMs?: number): Promise<string | undefined>;
}

function run(args: readonly string[], opts: { paused?: boolean } = {}): Run {
  const child = spawn(process.execPath, ["--expose-gc", "--import", "tsx", CHILD, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const out: Buffer[] = [];
  let err = "";
  let reading = false;
  const read = (): void => {
    if (!reading) child.stdout!.on("data", (chunk: Buffer) => out.push(chunk));
    reading = true;
  };
  if (!opts.paused) read();
  child.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  // stdout may still hold data when the process exits: wait for its end too.
  const ended = new Promise<void>((resolve) => child.stdout!.once("close", () => resolve()));
  return {
    child,
    exited: exited.then(async (code) => {
      read();
      await ended;
      return code;
    }),
    read,
    stdout: () => Buffer.concat(out).toString(),
    stderr: () => err,
    async waitErr(re, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const line = err.split("\n").find((l) => re.test(l));
        if (line !== undefined) return line;
        if (child.exitCode !== null) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      return undefined;
    },
  };
}

interface Line {
  readonly msg: string;
  readonly seq?: number;
  readonly dropped?: number;
}

function parse(stdout: string): Line[] {
  return stdout
    .split("\n")
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as Line);
}

/** The `seq` of every "delivered" line, in the order written. */
function seqs(lines: readonly Line[]): number[] {
  return lines.filter((l) => l.msg === "delivered").map((l) => l.seq!);
}

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);
const N = 20_000; // ~6 MB, within the default 8 MiB buffer although logged in one turn of the loop

it("a process that logs N lines and then gets SIGTERM has all N in its stdout, in order", async () => {
  const r = run(["sigterm", String(N)]);
  expect(await r.waitErr(/^logged$/)).toBe("logged");
  r.child.kill("SIGTERM");
  expect(await r.exited).toBe(0);
  expect(seqs(parse(r.stdout()))).toEqual(range(N));
}, 60_000);

it("process.exit in the same turn as the last line still writes every line", async () => {
  const r = run(["exit", String(N)]);
  expect(await r.exited).toBe(3);
  expect(seqs(parse(r.stdout()))).toEqual(range(N));
}, 60_000);

it("an uncaught error right after the last line still writes every line", async () => {
  const r = run(["throw", String(N)]);
  expect(await r.exited).toBe(1);
  expect(r.stderr()).toContain("fatal after logging");
  expect(seqs(parse(r.stdout()))).toEqual(range(N));
}, 60_000);

it("log_slow_reader_unbounded_memory: a reader that stops reading stalls no loop and grows no memory", async () => {
  const lines = 100_000; // ~30 MB of lines against a 1 MiB buffer
  const r = run(["flood", String(lines), "--max-bytes", String(1024 * 1024)], { paused: true });
  // Nothing reads its stdout until it reports (or, when it cannot, for FLOOD_READ_AFTER_MS).
  const report = await r.waitErr(/^\{/, FLOOD_READ_AFTER_MS);
  r.read();
  const figures = JSON.parse(report ?? (await r.waitErr(/^\{/))!) as {
    maxLateMs: number;
    heapGrowth: number;
    dropped: number;
  };
  r.child.kill("SIGTERM");
  expect(await r.exited).toBe(0);
  // Blocked on the pipe, the loop would wait the FLOOD_READ_AFTER_MS this test holds off reading; a
  // loaded machine alone delays it a few hundred ms at most.
  expect(figures.maxLateMs).toBeLessThan(FLOOD_READ_AFTER_MS / 4);
  expect(figures.heapGrowth).toBeLessThan(16 * 1024 * 1024);
  // What did not fit was dropped, counted, and said once the reader was back; nothing else is missing.
  const out = parse(r.stdout());
  const written = seqs(out);
  expect(figures.dropped).toBeGreaterThan(0);
  expect(written.length + figures.dropped).toBe(lines);
  expect(written).toEqual([...written].sort((a, b) => a - b));
  const reported = out.filter((l) => l.msg === "log lines dropped").map((l) => l.dropped!);
  expect(reported.reduce((a, b) => a + b, 0)).toBe(figures.dropped);
}, 60_000);

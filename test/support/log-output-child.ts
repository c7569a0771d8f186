// A process that logs through the gateway's logger and log output (src/observability/log-output.ts)
// the way a gateway does, for tests that watch what reaches its stdout: how it stops, how it behaves
// while nobody reads. `--pino-default` uses pino's own stdout destination instead (the one before).
//
//   tsx log-output-child.ts <mode> <lines> [--max-bytes N] [--pino-default]
//   mode  sigterm   log the lines, say "logged" on stderr, drain on SIGTERM and exit 0
//         exit      log the lines and call process.exit(3) in the same turn of the loop
//         throw     log the lines and throw (an uncaught error: exit 1)
//         flood     log the lines in batches while sampling the loop; on stderr a JSON report
//                   {maxLateMs, heapGrowth, dropped}; then as sigterm
import { parseArgs } from "node:util";
import { LogOutput } from "../../src/observability/log-output.ts";
import { createLogger } from "../../src/observability/logger.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { "max-bytes": { type: "string" }, "pino-default": { type: "boolean", default: false } },
});
const [mode, count] = positionals;
const lines = Number(count);
const output = values["pino-default"]
  ? undefined
  : new LogOutput(values["max-bytes"] ? { maxBytes: Number(values["max-bytes"]) } : {});
const logger = createLogger({ level: "info", ...(output ? { destination: output } : {}) });
output?.onCaughtUp((dropped) => logger.warn({ dropped }, "log lines dropped"));
// A delivery line's size: ids, a source, a sink, a duration.
const filler = "x".repeat(200);

process.on("SIGTERM", () => {
  void (output?.drained() ?? Promise.resolve()).then(() => process.exit(0));
});

function logRange(from: number, to: number): void {
  for (let i = from; i < to; i++) logger.info({ seq: i, filler }, "delivered");
}

if (mode === "sigterm" || mode === "exit" || mode === "throw") {
  logRange(0, lines);
  if (mode === "exit") process.exit(3);
  if (mode === "throw") throw new Error("fatal after logging");
  process.stderr.write("logged\n");
  setInterval(() => undefined, 1000);
} else if (mode === "flood") {
  let maxLate = 0;
  let due = performance.now() + 5;
  const sampler = setInterval(() => {
    const now = performance.now();
    maxLate = Math.max(maxLate, now - due);
    due = now + 5;
  }, 5);
  globalThis.gc?.();
  const heap0 = process.memoryUsage().heapUsed;
  const BATCH = 500;
  let next = 0;
  const batch = (): void => {
    logRange(next, Math.min(lines, next + BATCH));
    next += BATCH;
    if (next < lines) return void setTimeout(batch, 1);
    clearInterval(sampler);
    globalThis.gc?.();
    const heapGrowth = process.memoryUsage().heapUsed - heap0;
    process.stderr.write(
      `${JSON.stringify({ maxLateMs: maxLate, heapGrowth, dropped: output?.droppedLines ?? 0 })}\n`,
    );
    setInterval(() => undefined, 1000);
  };
  batch();
} else {
  throw new Error(`mode sigterm|exit|throw|flood, not ${mode}`);
}

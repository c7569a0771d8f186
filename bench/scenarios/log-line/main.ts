// bench:log-line — what a delivery's `info` line costs: this tree's logger and log output (as boot wires
// them) against another checkout's (BENCH_BASE_TREE, its logger on pino's default stdout destination), in
// ONE process, alternating blocks, so a busy shared machine slows both alike. Both write to /dev/null;
// the loop yields every BENCH_YIELD_EVERY lines (100: a busy worker's turn; 1: a write per line, the
// most a line can cost). The figure is this process's CPU per line (the writing threads' included),
// median over blocks, and its ratio.
// Knobs: BENCH_BASE_TREE (required), BENCH_BLOCKS (10 per variant), BENCH_BLOCK (20000 lines),
// BENCH_YIELD_EVERY (100).
import { openSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { median, table } from "../../shared/support.ts";

const BASE = process.env.BENCH_BASE_TREE;
if (!BASE) throw new Error("set BENCH_BASE_TREE to the checkout to compare with");
const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 10);
const BLOCK = Number(process.env.BENCH_BLOCK ?? 20000);
const YIELD_EVERY = Number(process.env.BENCH_YIELD_EVERY ?? 100);
const HERE = resolve(fileURLToPath(new URL("../../..", import.meta.url)));
const devNull = openSync("/dev/null", "w");

interface Logger {
  info(fields: Record<string, unknown>, msg: string): void;
}
interface Variant {
  readonly name: string;
  readonly logger: Logger;
  /** Resolves once what was logged has been written. */
  drained(): Promise<void>;
}
type CreateLogger = (opts: { level: string; destination?: unknown }) => Logger;

async function createLoggerOf(tree: string): Promise<CreateLogger> {
  const mod = (await import(join(tree, "src/observability/logger.ts"))) as { createLogger: CreateLogger };
  return mod.createLogger;
}

async function thisTree(): Promise<Variant> {
  const createLogger = await createLoggerOf(HERE);
  const { LogOutput } = (await import(join(HERE, "src/observability/log-output.ts"))) as {
    LogOutput: new (o: { fd: number }) => { drained(): Promise<void> };
  };
  const output = new LogOutput({ fd: devNull });
  return {
    name: "this tree",
    logger: createLogger({ level: "info", destination: output }),
    drained: () => output.drained(),
  };
}

async function baseTree(tree: string): Promise<Variant> {
  const createLogger = await createLoggerOf(tree);
  // pino's default destination, on /dev/null instead of stdout: its own pino, from its own node_modules.
  const { pino } = createRequire(join(tree, "package.json"))("pino") as {
    pino: { destination(o: { dest: number; sync: boolean }): { flush(cb: () => void): void } };
  };
  const destination = pino.destination({ dest: devNull, sync: false });
  return {
    name: "base tree",
    logger: createLogger({ level: "info", destination }),
    drained: () => new Promise<void>((r) => setTimeout(r, 20)),
  };
}

// The fields of a delivered line (attempt-runner.ts), with its spread of the attempt's log fields.
const attempt = {
  delivery_id: "01JXYZABCDEFGHJKMNPQRSTVWX.out",
  hook_id: "01JXYZABCDEFGHJKMNPQRSTVWX",
  source: "bench",
  tenant: null,
  sink: "out",
  attempt: 1,
  replay_id: undefined,
};

async function block(v: Variant): Promise<number> {
  const t0 = process.cpuUsage();
  for (let i = 0; i < BLOCK; i++) {
    v.logger.info({ ...attempt, duration_ms: i % 7, result: "ok" }, "delivered");
    if (i % YIELD_EVERY === YIELD_EVERY - 1) await new Promise((r) => setImmediate(r));
  }
  await v.drained();
  const used = process.cpuUsage(t0);
  return (used.user + used.system) / BLOCK;
}

const variants = [await thisTree(), await baseTree(resolve(BASE))];
const results = new Map(variants.map((v) => [v.name, [] as number[]]));
for (const v of variants) await block(v); // warm up
for (let b = 0; b < BLOCKS; b++)
  for (const v of b % 2 === 0 ? variants : [...variants].reverse()) results.get(v.name)!.push(await block(v));
const m = new Map(variants.map((v) => [v.name, median(results.get(v.name)!)]));
console.log(
  table([
    {
      measure: `CPU µs per delivered line (median of ${BLOCKS} blocks of ${BLOCK})`,
      ...Object.fromEntries(variants.map((v) => [v.name, m.get(v.name)!.toFixed(2)])),
      "this / base": (m.get("this tree")! / m.get("base tree")!).toFixed(2),
    },
  ]),
);

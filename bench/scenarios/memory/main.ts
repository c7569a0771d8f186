// bench:memory — Redis bytes per 1 KiB hook, queued and dead-lettered, Switchyard (switchyard.ts)
// beside the bare BullMQ baseline (baseline.ts) in the same run, each measurement on its own
// private, empty redis-server: the growth of INFO used_memory over N hooks divided by N, with MEMORY
// USAGE of one queued hook's own keys beside it to show where the bytes go.
//
//   npm run bench:memory -- [--quick] [--json FILE] [--against DIR]
//
// Also measured: bytes per delivered hook (what it keeps until retention_s). --against DIR measures
// another checkout of Switchyard (its node_modules present) the same way, beside this one, in the same run.
//
// Knobs: BENCH_HOOKS (N: 20,000; quick 1,000; `npm run bench` uses 100,000).
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { benchFlags, knob, progress, writeResult } from "../../shared/flags.ts";
import { baselineMemory } from "./baseline.ts";
import { switchyardMemory } from "./switchyard.ts";
import { type MemoryResult, orNull } from "../../shared/result-types.ts";
import { table } from "../../shared/support.ts";

async function main(): Promise<void> {
  const flags = benchFlags();
  const n = knob("BENCH_HOOKS", flags.quick, 1000, 20_000);
  const { values } = parseArgs({ options: { against: { type: "string" } }, strict: false });
  const against = typeof values.against === "string" ? resolve(values.against) : undefined;
  progress(`switchyard: ${n} queued hooks`);
  const queued = await switchyardMemory("queued", n);
  progress(`switchyard: ${n} delivered hooks`);
  const delivered = await switchyardMemory("delivered", n);
  progress(`baseline: ${n} queued jobs`);
  const baseQueued = await baselineMemory("queued", n);
  progress(`switchyard: ${n} dead-lettered hooks`);
  const dead = await switchyardMemory("dead", n);
  progress(`baseline: ${n} failed jobs`);
  const baseDead = await baselineMemory("dead", n);

  const f = (x: number): string => x.toFixed(0);
  if (against !== undefined) {
    const other: Record<string, { bytes: number; keys: number }> = {};
    for (const kind of ["queued", "delivered", "dead"] as const) {
      progress(`against ${against}: ${n} ${kind} hooks`);
      other[kind] = await switchyardMemory(kind, n, against);
    }
    const mine = { queued, delivered, dead };
    console.log(`bench:memory --against ${against}: bytes (keys) per hook, this tree beside that one`);
    console.log(
      table(
        (["queued", "delivered", "dead"] as const).map((kind) => ({
          measure: `${kind} hook`,
          "this tree": `${f(mine[kind].bytes)} (${mine[kind].keys.toFixed(2)})`,
          against: `${f(other[kind]?.bytes ?? NaN)} (${(other[kind]?.keys ?? NaN).toFixed(2)})`,
          difference: f(mine[kind].bytes - (other[kind]?.bytes ?? NaN)),
        })),
      ),
    );
  }
  console.log(`bench:memory  ${n.toLocaleString("en")} signed 1 KiB hooks, one sink`);
  console.log(
    table([
      {
        measure: "bytes per queued hook",
        switchyard: f(queued.bytes),
        baseline: f(baseQueued.bytes),
        target: "≤ 3072",
      },
      {
        measure: "bytes per delivered hook",
        switchyard: f(delivered.bytes),
        baseline: "",
        target: "",
      },
      {
        measure: "keys per queued hook",
        switchyard: queued.keys.toFixed(2),
        baseline: baseQueued.keys.toFixed(2),
        target: "",
      },
      {
        measure: "bytes per dead-lettered hook",
        switchyard: f(dead.bytes),
        baseline: f(baseDead.bytes),
        target: "",
      },
      {
        measure: "keys per dead-lettered hook",
        switchyard: dead.keys.toFixed(2),
        baseline: baseDead.keys.toFixed(2),
        target: "",
      },
    ]),
  );
  if (queued.own) {
    const { record, row, job } = queued.own;
    console.log(
      `MEMORY USAGE of one queued hook's own keys: record ${record}, delivery row ${row}, job ${job} = ${record + row + job}; the rest is the wait list, the watch set and the dedup key`,
    );
  }
  const result: MemoryResult = {
    script: "memory",
    quick: flags.quick,
    hooks: n,
    switchyard: {
      queued: orNull(queued.bytes),
      dead: orNull(dead.bytes),
      keysQueued: orNull(queued.keys),
      keysDead: orNull(dead.keys),
    },
    baseline: {
      queued: orNull(baseQueued.bytes),
      dead: orNull(baseDead.bytes),
      keysQueued: orNull(baseQueued.keys),
      keysDead: orNull(baseDead.keys),
    },
  };
  writeResult(flags.json, result);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();

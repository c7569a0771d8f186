// bench:memory — Redis bytes per 1 KiB hook, queued and dead-lettered, Switchyard (switchyard.ts)
// beside the bare BullMQ baseline (baseline.ts) in the same run, each measurement on its own
// private, empty redis-server: the growth of INFO used_memory over N hooks divided by N, with MEMORY
// USAGE of one queued hook's own keys beside it to show where the bytes go.
//
//   npm run bench:memory -- [--quick] [--json FILE]
//
// Knobs: BENCH_HOOKS (N: 20,000; quick 1,000; `npm run bench` uses 100,000).
import { benchFlags, knob, progress, writeResult } from "../../shared/flags.ts";
import { baselineMemory } from "./baseline.ts";
import { switchyardMemory } from "./switchyard.ts";
import { type MemoryResult, orNull } from "../../shared/result-types.ts";
import { table } from "../../shared/support.ts";

async function main(): Promise<void> {
  const flags = benchFlags();
  const n = knob("BENCH_HOOKS", flags.quick, 1000, 20_000);
  progress(`switchyard: ${n} queued hooks`);
  const queued = await switchyardMemory("queued", n);
  progress(`baseline: ${n} queued jobs`);
  const baseQueued = await baselineMemory("queued", n);
  progress(`switchyard: ${n} dead-lettered hooks`);
  const dead = await switchyardMemory("dead", n);
  progress(`baseline: ${n} failed jobs`);
  const baseDead = await baselineMemory("dead", n);

  const f = (x: number): string => x.toFixed(0);
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

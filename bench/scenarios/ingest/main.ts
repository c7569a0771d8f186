// bench:ingest — accepted hooks/s and p50/p99 latency for a signed 1 KiB Standard Webhooks hook, against
// Switchyard's ingest API and, in the same run, a bare Hono route doing one Redis pipeline of the same
// writes, with 1 and with 2 API processes (two web dynos on one Redis: each process its own port, the
// load split evenly over them and run at once). Rounds alternate between the two so machine noise hits
// both alike; the ratio is the result.
//
//   npm run bench:ingest -- [--processes 1,2] [--quick] [--json FILE]
//
// Knobs: BENCH_SECONDS (5; quick 1), BENCH_ROUNDS (3; quick 1), BENCH_CONNECTIONS (32, split over the
// processes), REDIS_URL (unset: a private redis-server is started for the run).
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { Redis } from "ioredis";
import { startPrivateRedis } from "../../../src/runtime/dev-redis.ts";
import { benchFlags, knob, progress, writeResult } from "../../shared/flags.ts";
import { type IngestFigures, type IngestResult, orNull } from "../../shared/result-types.ts";
import { type LoadResult, signedLoad, signedSourceConfig } from "../../shared/signed-load.ts";
import {
  SWITCHYARD_NODE,
  type Target,
  deleteKeys,
  median,
  startTarget,
  table,
} from "../../shared/support.ts";

const BASELINE_TARGET = fileURLToPath(new URL("./baseline-target.ts", import.meta.url));
const flags = benchFlags();
const { values: args } = parseArgs({
  options: { processes: { type: "string", default: "1,2" } },
  strict: false,
});
const PROCESSES = String(args.processes).split(",").map(Number);
const SECONDS = knob("BENCH_SECONDS", flags.quick, 1, 5);
const ROUNDS = knob("BENCH_ROUNDS", flags.quick, 1, 3);
const CONNECTIONS = knob("BENCH_CONNECTIONS", flags.quick, 32, 32);
const SECRET = `whsec_${randomBytes(24).toString("base64")}`;
const body = JSON.stringify({ type: "invoice.paid", data: { pad: "x".repeat(960) } }).slice(0, 1024);

const privateRedis = process.env.REDIS_URL ? undefined : await startPrivateRedis();
const REDIS_URL = process.env.REDIS_URL ?? privateRedis!.url;

/** The same load at once on every target, connections split evenly; p50/p99 the worst target's. */
async function load(targets: readonly Target[]): Promise<LoadResult> {
  const each = Math.max(1, Math.round(CONNECTIONS / targets.length));
  const results = await Promise.all(
    targets.map((t) => signedLoad(t.port, { secret: SECRET, body, seconds: SECONDS, connections: each })),
  );
  const sum = (f: (r: LoadResult) => number): number => results.reduce((a, r) => a + f(r), 0);
  return {
    rps: sum((r) => r.rps),
    p50: Math.max(...results.map((r) => r.p50)),
    p99: Math.max(...results.map((r) => r.p99)),
    non2xx: sum((r) => r.non2xx),
    accepted: sum((r) => r.accepted),
  };
}

const redis = new Redis(REDIS_URL);
const rows: Record<string, string | number>[] = [];
const results = new Map<string, LoadResult[]>();
const modes = ["switchyard", "baseline"] as const;
try {
  for (let round = 1; round <= ROUNDS; round++) {
    for (const processes of PROCESSES) {
      for (const mode of round % 2 ? modes : [...modes].reverse()) {
        progress(`round ${round}/${ROUNDS}: ${mode}, ${processes} API process(es), ${SECONDS} s`);
        const prefix = `bench-${mode}-${round}-${process.pid}`;
        const targets = await Promise.all(
          Array.from({ length: processes }, () =>
            mode === "switchyard"
              ? startTarget(SWITCHYARD_NODE, [
                  "api",
                  JSON.stringify(signedSourceConfig(REDIS_URL, prefix, SECRET)),
                ])
              : startTarget(BASELINE_TARGET, [REDIS_URL, prefix]),
          ),
        );
        let r: LoadResult;
        try {
          await load(targets); // warm-up of the same length
          r = await load(targets);
        } finally {
          await Promise.all(targets.map((t) => t.stop()));
        }
        await deleteKeys(redis, prefix);
        const key = `${mode}/${processes}`;
        results.set(key, [...(results.get(key) ?? []), r]);
        rows.push({
          round,
          processes,
          target: mode,
          "hooks/s": Math.round(r.rps),
          "p50 ms": r.p50,
          "p99 ms": r.p99,
          non2xx: r.non2xx,
        });
      }
    }
  }
} finally {
  redis.disconnect();
  await privateRedis?.stop();
}

const medians = (key: string): IngestFigures => {
  const rs = results.get(key) ?? [];
  const m = (f: (r: LoadResult) => number): number | null => orNull(median(rs.map(f)));
  return { rps: m((r) => r.rps), p50: m((r) => r.p50), p99: m((r) => r.p99), non2xx: m((r) => r.non2xx) };
};
console.log(table(rows));
const byProcesses = PROCESSES.map((processes) => ({
  processes,
  switchyard: medians(`switchyard/${processes}`),
  baseline: medians(`baseline/${processes}`),
}));
for (const { processes, switchyard: sy, baseline: base } of byProcesses) {
  const ratio = sy.rps !== null && base.rps !== null ? ((100 * sy.rps) / base.rps).toFixed(1) : "–";
  console.log(
    `\n${processes} API process(es), median accepted hooks/s: switchyard ${Math.round(sy.rps ?? NaN)}, baseline ${Math.round(base.rps ?? NaN)}; ratio ${ratio}% (target ≥ 80%)`,
  );
  console.log(`  median p50/p99 ms: switchyard ${sy.p50}/${sy.p99}, baseline ${base.p50}/${base.p99}`);
}
const result: IngestResult = {
  script: "ingest",
  quick: flags.quick,
  seconds: SECONDS,
  rounds: ROUNDS,
  connections: CONNECTIONS,
  byProcesses,
};
writeResult(flags.json, result);

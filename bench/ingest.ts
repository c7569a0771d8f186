// bench:ingest — accepted hooks/s and p50/p99 latency for a signed 1 KiB Standard Webhooks hook, against
// Switchyard's ingest API and, in the same run, a bare Hono route doing one Redis pipeline of the same
// writes. Rounds alternate between the two so machine noise hits both alike; the ratio is the result.
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { signedLoad } from "./ingest-load.ts";
import { deleteKeys, median, startTarget, table } from "./support.ts";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const SECRET = `whsec_${randomBytes(24).toString("base64")}`;
const body = JSON.stringify({ type: "invoice.paid", data: { pad: "x".repeat(960) } }).slice(0, 1024);

const load = (port: number) =>
  signedLoad(port, { secret: SECRET, body, seconds: SECONDS, connections: CONNECTIONS });

const redis = new Redis(REDIS_URL);
const rows: Record<string, string | number>[] = [];
const results: Record<string, { rps: number; p50: number; p99: number }[]> = { switchyard: [], baseline: [] };
for (let round = 1; round <= ROUNDS; round++) {
  for (const mode of ["switchyard", "baseline"] as const) {
    const prefix = `bench-${mode}-${round}-${process.pid}`;
    const target = await startTarget("bench/ingest-target.ts", [mode, REDIS_URL, prefix, SECRET]);
    await load(target.port); // warm-up of the same length is too slow; a short one:
    const r = await load(target.port);
    await target.stop();
    await deleteKeys(redis, prefix);
    results[mode]!.push(r);
    rows.push({
      round,
      target: mode,
      "hooks/s": Math.round(r.rps),
      "p50 ms": r.p50,
      "p99 ms": r.p99,
      non2xx: r.non2xx,
    });
  }
}
redis.disconnect();

const sy = median(results.switchyard!.map((r) => r.rps));
const base = median(results.baseline!.map((r) => r.rps));
console.log(table(rows));
console.log(
  `\nmedian accepted hooks/s: switchyard ${Math.round(sy)}, baseline ${Math.round(base)}; ratio ${((100 * sy) / base).toFixed(1)}% (target ≥ 70%)`,
);
console.log(
  `median p50/p99 ms: switchyard ${median(results.switchyard!.map((r) => r.p50))}/${median(results.switchyard!.map((r) => r.p99))}, baseline ${median(results.baseline!.map((r) => r.p50))}/${median(results.baseline!.map((r) => r.p99))}`,
);

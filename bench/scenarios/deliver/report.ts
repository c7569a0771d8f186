// The printed result of bench:deliver: the per-round table, then per comparison the medians over rounds and
// their ratio, with the per-round ratios beside it (same round, same noise) so the spread is visible.
import { median, ratioText, table } from "../../shared/support.ts";

/** One contender's figures in one round. */
export interface Result {
  /** CPU per delivery (µs) of the delivering process, and of Redis over the same time. */
  readonly cpuUs: number;
  readonly redisUs: number;
  /** N over the whole drain, from the start signal (or the first POST) to the N-th arrival. */
  readonly rate: number;
  /** Over the last N − WARM arrivals only: the rate once the process is warm (JIT, connections). */
  readonly steady: number;
  readonly seconds: number;
  readonly note: string;
}

/** Print the table and the summary lines of every comparison whose contenders all ran. */
export function printReport(
  rows: readonly Record<string, string | number>[],
  results: ReadonlyMap<string, readonly Result[]>,
): void {
  type Figure = "rate" | "steady" | "cpuUs" | "redisUs";
  const of = (name: string, f: Figure): number[] => (results.get(name) ?? []).map((r) => r[f]);
  const med = (name: string, f: Figure): number => median(of(name, f));
  const fmt = (name: string, f: Figure = "rate"): string => String(Math.round(med(name, f)));
  const ratio = (a: string, b: string, f: Figure = "rate"): string => ratioText(of(a, f), of(b, f));
  console.log(`\n${table(rows)}\n`);
  const ran = (...names: string[]): boolean => names.every((n) => (results.get(n)?.length ?? 0) > 0);
  const cpu = (a: string, b: string): string =>
    `CPU µs per delivery, switchyard vs baseline: delivering process ${fmt(a, "cpuUs")} vs ${fmt(b, "cpuUs")}, i.e. ${ratio(a, b, "cpuUs")} of the baseline's; Redis (shared, indicative) ${fmt(a, "redisUs")} vs ${fmt(b, "redisUs")}`;
  const [e2e, sy, base] = ["switchyard e2e", "switchyard drain", "baseline bullmq+undici"];
  if (ran(sy, base)) {
    console.log(
      `HTTP drain, median deliveries/s: switchyard ${fmt(sy)}, baseline ${fmt(base)}; ratio ${ratio(sy, base)}; target ≥ 70%`,
    );
    console.log(
      `  warm (last 80%): switchyard ${fmt(sy, "steady")}, baseline ${fmt(base, "steady")}; ratio ${ratio(sy, base, "steady")}`,
    );
    console.log(`  ${cpu(sy, base)}`);
  }
  if (ran(e2e, base)) {
    console.log(
      `HTTP end-to-end (api process + dispatch process, ingest alongside): ${fmt(e2e)} deliveries/s, ${ratio(e2e, base)} of the baseline drain (for scale only: not like for like)`,
    );
  }
  const [amqpBase, amqpSinks] = ["baseline amqplib", ["switchyard unbatched", "switchyard batch 256/5ms"]];
  if (ran(amqpBase)) console.log(`AMQP drain, median deliveries/s: baseline amqplib ${fmt(amqpBase)}`);
  for (const name of amqpSinks.filter((n) => ran(n, amqpBase))) {
    console.log(
      `  ${name}: ${fmt(name)}, ratio ${ratio(name, amqpBase)}; warm ${fmt(name, "steady")} vs ${fmt(amqpBase, "steady")}, ${ratio(name, amqpBase, "steady")}`,
    );
    console.log(`    ${cpu(name, amqpBase)}`);
  }
}

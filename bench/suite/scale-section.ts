// The Redis Cluster section of `npm run bench`: Switchyard's Redis CPU per hook on a 3-master cluster
// against one Redis, and beside it what the cluster costs Redis itself for the same commands sent plain,
// so the report shows which part of the ratio is the backend's and which is Switchyard's.
import { type Row, type Section, row } from "./report.ts";
import type { StepResults } from "./steps.ts";

type Scale = NonNullable<StepResults["scale"]>;
type Figures = Scale["contenders"][number];

const ratioOf = (a: number | null | undefined, b: number | null | undefined): number | null =>
  a != null && b != null && b !== 0 ? a / b : null;

/** Per round, a cluster figure over the one-Redis figure of the same round. */
function perRound(
  cluster: readonly { redisUs: number | null }[] | undefined,
  one: readonly { redisUs: number | null }[] | undefined,
): string {
  return (cluster ?? []).map((r, i) => ratioOf(r.redisUs, one?.[i]?.redisUs)?.toFixed(2) ?? "–").join(", ");
}

/** The plain-commands rows: Redis's own price of the cluster, and Switchyard's ratio against it. */
function floorRows(
  floor: NonNullable<Scale["floor"]>,
  first: Figures | undefined,
  firstOne: Figures | undefined,
): Row[] {
  const [one, cluster] = [floor.find((f) => f.backend === "one"), floor.find((f) => f.backend === "cluster")];
  return [
    row(
      "no Switchyard: the hot path's commands sent plain, Redis CPU per hook (cluster vs one Redis)",
      "µs",
      cluster?.redisUs,
      one?.redisUs,
    ),
    row(
      "cluster ÷ one Redis: Switchyard's CPU ratio (first row) vs the plain commands'",
      "×",
      ratioOf(first?.redisUs, firstOne?.redisUs),
      ratioOf(cluster?.redisUs, one?.redisUs),
    ),
  ];
}

/** The note under the table: what the plain-commands rows measure, and their ratio per round. */
function floorNote(floor: NonNullable<Scale["floor"]>): string {
  const [one, cluster] = [floor.find((f) => f.backend === "one"), floor.find((f) => f.backend === "cluster")];
  return (
    "No Switchyard: the commands a hook's trip through the ledger runs (persist, pop, claim, outcome), sent " +
    "plain with no scripts, each step one pipeline on the hook's bucket tag, so both backends see the same " +
    "commands and round trips (bench/scenarios/scale/command-floor.ts); the cluster's ratio per round: " +
    `${perRound(cluster?.rounds, one?.rounds)}.`
  );
}

/** The section, from the scale step's result (empty figures when it did not run). */
export function scale(r: StepResults): Section {
  const s = r.scale;
  const of = (backend: "one" | "cluster", workers: number) =>
    s?.contenders.find((c) => c.backend === backend && c.workers === workers);
  const workers = [...new Set(s?.contenders.map((c) => c.workers) ?? [1])];
  const rows = workers.flatMap((w) => {
    const [cluster, one] = [of("cluster", w), of("one", w)];
    const n = `${w} worker process${w === 1 ? "" : "es"}`;
    return [
      row(`Redis CPU per hook, summed over masters, ${n}`, "µs", cluster?.redisUs, one?.redisUs, {
        on: "ratio",
        op: "<=",
        value: 1.15,
      }),
      row(`the same less the masters' idle spend, ${n}`, "µs", cluster?.netUs, one?.netUs),
      row(`script calls per hook, ${n}`, "calls", cluster?.scriptCalls, one?.scriptCalls),
      row(`delivered end to end, ${n}`, "hooks/s", cluster?.e2e, one?.e2e),
    ];
  });
  const [first, firstOne] = [of("cluster", workers[0] ?? 1), of("one", workers[0] ?? 1)];
  if (s?.floor) rows.push(...floorRows(s.floor, first, firstOne));
  return {
    id: "scale",
    title: "Redis Cluster",
    baseline:
      "here the baseline is the same Switchyard on one Redis. Both backends are started by the script from " +
      "redis-server processes (the cluster: 3 masters, 3 replicas); one api-role and one dispatch-role " +
      "process ingest unsigned 1 KiB hooks to one HTTP sink at a local receiver, and the Redis CPU (user + " +
      "sys) is summed over the masters from the first POST to the last arrival. The cluster's masters also " +
      "feed their replicas and the cluster bus; the single Redis has neither.",
    rows,
    notes: s
      ? [
          `${s.hooks.toLocaleString("en")} hooks per contender, median of ${s.rounds} round(s), ${s.partitions} queue partitions; ` +
            `the CPU ratio per round: ${perRound(first?.rounds, firstOne?.rounds)}.`,
          ...(s.floor ? [floorNote(s.floor)] : []),
        ]
      : [],
  };
}

// The child processes `npm run bench` runs: each an existing benchmark script, given --json (and
// --quick), whose result file is parsed with its schema (shared/result-types.ts). Which steps run follows from
// the scenarios asked for: the HTTP end-to-end run also measures latency at half its saturation rate.
import type { ZodType } from "zod";
import {
  type DlqResult,
  type E2eResult,
  type FanoutResult,
  type IngestResult,
  type MemoryResult,
  type ScaleResult,
  dlqResult,
  e2eResult,
  fanoutResult,
  ingestResult,
  memoryResult,
  scaleResult,
} from "../shared/result-types.ts";

export const SCENARIOS = ["ingest", "e2e", "latency", "memory", "fanout", "dlq", "scale"] as const;
export type Scenario = (typeof SCENARIOS)[number];

/** What the steps found, by step. */
export interface StepResults {
  ingest?: IngestResult;
  e2eHttp?: E2eResult;
  e2eAmqp?: E2eResult;
  memory?: MemoryResult;
  fanout?: FanoutResult;
  dlq?: DlqResult;
  scale?: ScaleResult;
}

export interface Step {
  readonly id: keyof StepResults;
  /** What the progress line calls it. */
  readonly label: string;
  readonly script: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** Give the child a private redis-server as REDIS_URL (the script would use the shared one). */
  readonly privateRedis: boolean;
  /** The child runs the Procfile's roles, which run compiled output: build dist/ first. */
  readonly procfile: boolean;
  readonly schema: ZodType;
}

export function steps(selected: ReadonlySet<Scenario>, quick: boolean): Step[] {
  const q = quick ? ["--quick"] : [];
  const base = { env: {}, privateRedis: false, procfile: false };
  const e2eRounds = quick ? [] : ["--rounds", "3"];
  const out: Step[] = [];
  if (selected.has("ingest"))
    out.push({
      ...base,
      id: "ingest",
      label: "ingest: signed 1 KiB hooks, 1 and 2 API processes",
      script: "bench/scenarios/ingest/main.ts",
      args: q,
      schema: ingestResult,
    });
  if (selected.has("e2e") || selected.has("latency")) {
    const phases = selected.has("latency") ? "saturation,latency" : "saturation";
    out.push({
      ...base,
      id: "e2eHttp",
      label: `end to end, HTTP sink (${phases.replace(",", " + ")})`,
      script: "bench/scenarios/e2e/main.ts",
      // The same tree once more at warn prices the per-delivery info line within the run.
      args: [...q, ...e2eRounds, "--sink", "http", "--only", phases, "--also-log-level", "warn"],
      procfile: true,
      schema: e2eResult,
    });
  }
  if (selected.has("e2e"))
    out.push({
      ...base,
      id: "e2eAmqp",
      label: "end to end, AMQP sink (saturation)",
      script: "bench/scenarios/e2e/main.ts",
      args: [...q, ...e2eRounds, "--sink", "amqp", "--only", "saturation"],
      procfile: true,
      schema: e2eResult,
    });
  if (selected.has("memory"))
    out.push({
      ...base,
      id: "memory",
      label: "memory: Redis bytes per queued and per dead-lettered hook",
      script: "bench/scenarios/memory/main.ts",
      args: q,
      env: quick ? {} : { BENCH_HOOKS: "100000" },
      schema: memoryResult,
    });
  if (selected.has("fanout"))
    out.push({
      ...base,
      id: "fanout",
      label: "fanout: 1 event to many endpoints",
      script: "bench/scenarios/fanout/main.ts",
      args: q,
      privateRedis: true,
      schema: fanoutResult,
    });
  if (selected.has("dlq"))
    out.push({
      ...base,
      id: "dlq",
      label: "DLQ: a page of 100 vs listing everything",
      script: "bench/scenarios/dlq-list/main.ts",
      args: q,
      privateRedis: true,
      schema: dlqResult,
    });
  if (selected.has("scale"))
    out.push({
      ...base,
      id: "scale",
      label: "scale: one Redis vs a 3-master Redis Cluster",
      script: "bench/scenarios/scale/main.ts",
      args: q,
      // The script starts its own Redis and cluster; one worker process, the comparison the target is for.
      env: quick ? {} : { BENCH_WORKERS: "1", BENCH_ROUNDS: "3" },
      schema: scaleResult,
    });
  return out;
}

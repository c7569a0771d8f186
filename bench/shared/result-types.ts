// The machine-readable results the benchmark scripts write with --json, as zod schemas: each script
// builds one of these, and `npm run bench` (bench/suite/main.ts) parses the file its child wrote with the
// same schema, so a script and the suite cannot drift apart silently. A figure that could not be
// measured is null (JSON has no NaN); the suite shows it as "–".
import { z } from "zod";

const figure = z.number().nullable();

const ingestFigures = z.object({ rps: figure, p50: figure, p99: figure, non2xx: figure });
export type IngestFigures = z.infer<typeof ingestFigures>;

export const ingestResult = z.object({
  script: z.literal("ingest"),
  quick: z.boolean(),
  seconds: z.number(),
  rounds: z.number(),
  connections: z.number(),
  /** One entry per number of API processes; every figure a median over rounds. */
  byProcesses: z.array(
    z.object({
      processes: z.number(),
      switchyard: ingestFigures,
      baseline: ingestFigures,
    }),
  ),
});
export type IngestResult = z.infer<typeof ingestResult>;

const saturation = z.object({
  delivered: figure,
  accepted: figure,
  non2xx: figure,
  webUs: figure,
  workerUs: figure,
  redisUs: figure,
});
const fixedRate = z.object({
  rate: figure,
  ack50: figure,
  ack99: figure,
  arrival50: figure,
  arrival99: figure,
  lost: figure,
  non2xx: figure,
});

export const e2eResult = z.object({
  script: z.literal("e2e"),
  quick: z.boolean(),
  sink: z.enum(["http", "amqp"]),
  seconds: z.number(),
  warmup: z.number(),
  connections: z.number(),
  rounds: z.number(),
  /** The fixed rate of the latency phase (half of Switchyard's saturation unless --rate). */
  rate: figure,
  /** Per contender (switchyard, baseline, any --against), medians over rounds; null: phase not run. */
  contenders: z.record(
    z.string(),
    z.object({
      saturation: saturation.nullable(),
      latency: fixedRate.nullable(),
      memory: figure,
      /** Each round's figures, in round order, for targets that bound the worst round too. */
      rounds: z.object({ saturation: z.array(saturation), latency: z.array(fixedRate) }).optional(),
    }),
  ),
});
export type E2eResult = z.infer<typeof e2eResult>;

export const memoryResult = z.object({
  script: z.literal("memory"),
  quick: z.boolean(),
  hooks: z.number(),
  /** INFO used_memory growth per hook, bytes; keys added per hook. */
  switchyard: z.object({
    queued: figure,
    dead: figure,
    keysQueued: figure,
    keysDead: figure,
  }),
  baseline: z.object({ queued: figure, dead: figure, keysQueued: figure, keysDead: figure }),
});
export type MemoryResult = z.infer<typeof memoryResult>;

const fanoutFigures = z.object({
  rate: figure,
  steady: figure,
  writtenMs: figure,
  deliveredMs: figure,
  cpuUs: figure,
  redisUs: figure,
});
export type FanoutFigures = z.infer<typeof fanoutFigures>;

export const fanoutResult = z.object({
  script: z.literal("fanout"),
  quick: z.boolean(),
  endpoints: z.number(),
  rounds: z.number(),
  concurrency: z.number(),
  /** Medians over rounds, by contender name ("switchyard fan-out", "baseline drain", …). */
  contenders: z.record(z.string(), fanoutFigures),
});
export type FanoutResult = z.infer<typeof fanoutResult>;

export const dlqResult = z.object({
  script: z.literal("dlq"),
  quick: z.boolean(),
  entries: z.number(),
  pageRuns: z.number(),
  fullRuns: z.number(),
  fillMs: figure,
  /** Medians: one `GET /v1/dlq?limit=100`, and listing every entry in pages of 1000. */
  pageMs: figure,
  fullMs: figure,
});
export type DlqResult = z.infer<typeof dlqResult>;

const scaleFigures = z.object({
  backend: z.enum(["one", "cluster"]),
  workers: z.number(),
  ingest: figure,
  e2e: figure,
  /** Redis CPU µs per hook, summed over masters; `netUs` less what they spent idle over the same time. */
  redisUs: figure,
  netUs: figure,
  idleUsPerS: figure,
  /** Commands per hook (scripts' own commands included), and script calls per hook. */
  calls: figure,
  scriptCalls: figure,
  rounds: z.array(z.object({ redisUs: figure, e2e: figure })),
});
export type ScaleFigures = z.infer<typeof scaleFigures>;

export const scaleResult = z.object({
  script: z.literal("scale"),
  quick: z.boolean(),
  hooks: z.number(),
  rounds: z.number(),
  partitions: z.number(),
  /** Medians over rounds, one entry per backend and number of worker processes. */
  contenders: z.array(scaleFigures),
  /**
   * The hot path's commands sent plain on each backend (bench/scenarios/scale/command-floor.ts): what the
   * cluster costs Redis itself, before any choice of Switchyard's. Absent in files from before it was measured.
   */
  floor: z
    .array(
      z.object({
        backend: z.enum(["one", "cluster"]),
        redisUs: figure,
        netUs: figure,
        rounds: z.array(z.object({ redisUs: figure })),
      }),
    )
    .optional(),
});
export type ScaleResult = z.infer<typeof scaleResult>;

/** NaN (nothing measured) as null, for a result file. */
export function orNull(value: number): number | null {
  return Number.isFinite(value) ? value : null;
}

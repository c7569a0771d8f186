// Stage timestamps of single hooks, for bench/scenarios/timeline/main.ts: where between a request and its delivery the
// time goes. Off unless SWITCHYARD_TIMELINE names a file prefix; then each process appends
// "<id> <stage> <ms since the epoch>" lines to <prefix>.<pid>. Off, `now` and `mark` do nothing, so the
// hot path pays a call of an empty function per stage. On, the process's own pauses are stamped too, for
// the bench to lay beside the slowest hooks: "~gc <start> <ms>" per garbage collection and "~stall <at>
// <ms> <cpu ms>" when a timer due every STALL_SAMPLE_MS ran at least STALL_MIN_MS late, with the CPU the
// process used meanwhile: near the stall's length, its own work held the loop; near 0, it was waiting
// for a core (a loaded machine).
import { appendFileSync } from "node:fs";
import { PerformanceObserver } from "node:perf_hooks";

export interface Timeline {
  readonly on: boolean;
  /** Wall-clock ms with sub-ms precision; 0 when off. */
  now(): number;
  /** Record that `id` reached `stage` at `at` (default: now). */
  mark(id: string, stage: string, at?: number): void;
  /** Record several stages of `id` at once (a stage without a time is now). */
  markAll(id: string, stages: readonly (readonly [string, number?])[]): void;
}

const FLUSH_MS = 200;
const STALL_SAMPLE_MS = 2;
const STALL_MIN_MS = 3;

function recorder(file: string): Timeline {
  let lines: string[] = [];
  const flush = (): void => {
    if (lines.length === 0) return;
    appendFileSync(file, `${lines.join("\n")}\n`);
    lines = [];
  };
  setInterval(flush, FLUSH_MS).unref();
  process.on("exit", flush);
  const now = (): number => performance.timeOrigin + performance.now();
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      lines.push(`~gc ${(performance.timeOrigin + e.startTime).toFixed(3)} ${e.duration.toFixed(3)}`);
  }).observe({ entryTypes: ["gc"] });
  // Says that this process stamps its pauses: none stamped then means none happened.
  lines.push(`~start ${now().toFixed(3)} 0`);
  const cpuMs = (): number => {
    const used = process.cpuUsage();
    return (used.user + used.system) / 1000;
  };
  let due = now() + STALL_SAMPLE_MS;
  let cpuBefore = cpuMs();
  setInterval(() => {
    const at = now();
    const cpu = cpuMs();
    if (at - due >= STALL_MIN_MS)
      lines.push(`~stall ${at.toFixed(3)} ${(at - due).toFixed(3)} ${(cpu - cpuBefore).toFixed(3)}`);
    due = at + STALL_SAMPLE_MS;
    cpuBefore = cpu;
  }, STALL_SAMPLE_MS).unref();
  const mark = (id: string, stage: string, at = now()): void =>
    void lines.push(`${id} ${stage} ${at.toFixed(3)}`);
  return {
    on: true,
    now,
    mark,
    markAll: (id, stages) => {
      for (const [stage, at] of stages) mark(id, stage, at);
    },
  };
}

const OFF: Timeline = { on: false, now: () => 0, mark: () => undefined, markAll: () => undefined };

const prefix = process.env.SWITCHYARD_TIMELINE;
export const timeline: Timeline = prefix ? recorder(`${prefix}.${process.pid}`) : OFF;

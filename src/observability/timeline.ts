// Stage timestamps of single hooks, for bench/scenarios/timeline/main.ts: where between a request and its delivery the
// time goes. Off unless SWITCHYARD_TIMELINE names a file prefix; then each process appends
// "<id> <stage> <ms since the epoch>" lines to <prefix>.<pid>. Off, `now` and `mark` do nothing, so the
// hot path pays a call of an empty function per stage.
import { appendFileSync } from "node:fs";

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

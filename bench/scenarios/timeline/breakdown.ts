// What bench:timeline makes of the stamps: per hook, when it passed each stage (the load generator's
// send and 202, the processes' stamps, the receiver's arrival), and per process its pauses (garbage
// collections, loop stalls: src/observability/timeline.ts). From them, the time between stages over
// every hook, and where the slowest 1% of hooks (by send → arrival) spent theirs: stage by stage, and
// how much of their wait lay under a pause of the web or the worker process.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { percentile } from "../../shared/e2e/load.ts";

/**
 * The stages in the order a hook passes them; `claimed` and `activated` (BullMQ's moveToActive time, whole
 * ms) are missing in trees from before they were stamped.
 */
export const STAGES = [
  "sent",
  "received",
  "verified",
  "persisted",
  "job_added",
  "202",
  "activated",
  "picked_up",
  "claimed",
  "sending",
  "arrived",
  "answered",
  "recorded",
] as const;
export type Stage = (typeof STAGES)[number];
export type Stamps = Partial<Record<Stage, number>>;

/** A span of wall-clock time (ms since the epoch) when a process could run nothing else. */
export interface Pause {
  readonly from: number;
  readonly to: number;
  /** Of a loop stall: the share of it the process spent on a core (0..1); unknown from older trees. */
  readonly ran?: number;
}

export interface ProcessPauses {
  readonly role: "web" | "worker" | "other";
  /** Does the process stamp its pauses at all (a tree from before it did does not)? */
  readonly stampsPauses: boolean;
  readonly gc: Pause[];
  readonly stalls: Pause[];
}

/** Add the stamps of every process's file in `dir` (prefix `stages.`) to `hooks`; return their pauses. */
export function readStamps(dir: string, hooks: Map<string, Stamps>): ProcessPauses[] {
  const processes: ProcessPauses[] = [];
  for (const file of readdirSync(dir).filter((f) => f.startsWith("stages."))) {
    let role: ProcessPauses["role"] = "other";
    let stampsPauses = false;
    const gc: Pause[] = [];
    const stalls: Pause[] = [];
    for (const line of readFileSync(join(dir, file), "utf8").split("\n")) {
      const [id, a, b, c] = line.split(" ");
      if (!id || a === undefined || b === undefined) continue;
      if (id.startsWith("~")) stampsPauses = true;
      if (id === "~gc") gc.push({ from: Number(a), to: Number(a) + Number(b) });
      else if (id === "~stall") {
        const ran = c === undefined ? {} : { ran: Math.min(1, Number(c) / Math.max(Number(b), 1e-3)) };
        stalls.push({ from: Number(a) - Number(b), to: Number(a), ...ran });
      } else {
        if (a === "received") role = "web";
        else if (a === "picked_up") role = "worker";
        const h = hooks.get(id);
        if (h) h[a as Stage] = Number(b);
      }
    }
    const byStart = (x: Pause, y: Pause): number => x.from - y.from;
    processes.push({ role, stampsPauses, gc: gc.sort(byStart), stalls: stalls.sort(byStart) });
  }
  return processes;
}

/** The stages most hooks have a stamp for (a tree without a stage leaves it out), in order. */
export function stagesPresent(hooks: readonly Stamps[]): Stage[] {
  return STAGES.filter((s) => hooks.filter((h) => h[s] !== undefined).length >= hooks.length * 0.9);
}

const ms = (n: number): string => (Number.isFinite(n) ? n.toFixed(2) : "–");
const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Per stage, the time since the previous stage and since the send: p50 and p99 over `hooks`. */
export function stageRows(hooks: readonly Stamps[], stages: readonly Stage[]): Record<string, string>[] {
  return stages.slice(1).map((stage, i) => {
    const prev = stages[i]!;
    const gap = hooks.map((h) => h[stage]! - h[prev]!);
    const since = hooks.map((h) => h[stage]! - h.sent!);
    return {
      stage: `${prev} → ${stage}`,
      "p50 ms": ms(percentile(gap, 50)),
      "p99 ms": ms(percentile(gap, 99)),
      "since sent p50": ms(percentile(since, 50)),
      "since sent p99": ms(percentile(since, 99)),
    };
  });
}

/**
 * Milliseconds of [from, to] covered by `pauses` (sorted by start, not overlapping one another), each
 * counted at `weight` of it (all of it by default).
 */
export function overlapMs(
  pauses: readonly Pause[],
  from: number,
  to: number,
  weight: (p: Pause) => number = () => 1,
): number {
  let lo = 0;
  let hi = pauses.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (pauses[mid]!.to <= from) lo = mid + 1;
    else hi = mid;
  }
  let total = 0;
  for (let i = lo; i < pauses.length && pauses[i]!.from < to; i++)
    total += (Math.min(to, pauses[i]!.to) - Math.max(from, pauses[i]!.from)) * weight(pauses[i]!);
  return total;
}

export interface Tail {
  /** send → arrival at the 99th percentile: hooks at or above it are the slowest 1%. */
  readonly thresholdMs: number;
  readonly slow: number;
  /** Per stage up to the arrival, and per process's pauses: all hooks beside the slowest 1%. */
  readonly rows: Record<string, string>[];
  /** Mean ms of the slowest 1% per row label, for a summary across runs. */
  readonly slowMean: Map<string, number>;
}

/** Where the slowest 1% of `hooks` (by send → arrival) waited, beside every hook's median. */
export function tailBreakdown(
  hooks: readonly Stamps[],
  stages: readonly Stage[],
  processes: readonly ProcessPauses[],
): Tail {
  const upToArrival = stages.slice(0, stages.indexOf("arrived") + 1);
  const total = (h: Stamps): number => h.arrived! - h.sent!;
  const thresholdMs = percentile(hooks.map(total), 99);
  const slow = hooks.filter((h) => total(h) >= thresholdMs);
  const slowTotal = mean(slow.map(total));
  const rows: Record<string, string>[] = [];
  const slowMean = new Map<string, number>();
  const row = (label: string, of: (h: Stamps) => number): void => {
    const m = mean(slow.map(of));
    if (Number.isNaN(m)) return;
    slowMean.set(label, m);
    rows.push({
      "where the time went": label,
      "all: p50 ms": ms(percentile(hooks.map(of), 50)),
      "all: mean ms": ms(mean(hooks.map(of))),
      "slowest 1%: mean ms": ms(m),
      "slowest 1%: p50 ms": ms(percentile(slow.map(of), 50)),
      "share of their wait": `${((100 * m) / slowTotal).toFixed(0)}%`,
    });
  };
  upToArrival.slice(1).forEach((stage, i) => {
    const prev = upToArrival[i]!;
    row(`${prev} → ${stage}`, (h) => h[stage]! - h[prev]!);
  });
  row("sent → arrived", total);
  // Pauses are not a stage: a hook waits under one whatever stage it is in (shares may overlap).
  for (const role of ["web", "worker"] as const) {
    const procs = processes.filter((p) => p.role === role);
    if (!procs.some((p) => p.stampsPauses)) continue;
    const under = (kind: "stalls" | "gc", weight?: (p: Pause) => number) => (h: Stamps) =>
      procs.reduce((n, p) => n + overlapMs(p[kind], h.sent!, h.arrived!, weight), 0);
    row(`  under ${role} loop stalls (≥3 ms late)`, under("stalls"));
    // A stall the process spent on a core was its own work; the rest it waited for one (machine load).
    if (procs.some((p) => p.stalls.some((s) => s.ran !== undefined)))
      row(
        `    of which ${role} was running`,
        under("stalls", (p) => p.ran ?? 0),
      );
    row(`  under ${role} GC pauses`, under("gc"));
  }
  return { thresholdMs, slow: slow.length, rows, slowMean };
}

// Where a process's own pauses show: how late its event loop runs what is due, and how long garbage
// collection stops it. A delivery's tail (a p99 far above its median) is mostly time spent waiting
// behind one of these, so both are histograms a dashboard can read per process and over time.
// prom-client's default collectors (switchyard_nodejs_eventloop_lag_*, _gc_duration_seconds) say some
// of it, but as gauges reset at each scrape and with coarse buckets that count one GC per batch of
// GC entries; these count every pause.
import { type PerformanceEntry, PerformanceObserver, constants } from "node:perf_hooks";
import { Histogram, type Registry } from "prom-client";

/** How often the loop is sampled: each sample is how late a timer due then ran. */
export const LOOP_SAMPLE_MS = 20;
const PAUSE_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];

const GC_KINDS: Readonly<Record<number, string>> = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: "major",
  [constants.NODE_PERFORMANCE_GC_MINOR]: "minor",
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: "incremental",
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: "weakcb",
};

/** The kind of a 'gc' performance entry: major, minor, incremental or weakcb. */
export function gcKind(entry: PerformanceEntry): string {
  const { detail } = entry as PerformanceEntry & { detail?: { kind?: number } | null };
  return GC_KINDS[detail?.kind ?? -1] ?? "other";
}

/** Register both histograms on `registry` and start feeding them; the returned function stops that. */
export function startRuntimeMetrics(registry: Registry): () => void {
  const loopDelay = new Histogram({
    name: "switchyard_event_loop_delay_seconds",
    help: `How late the event loop ran a timer, sampled every ${LOOP_SAMPLE_MS} ms.`,
    buckets: PAUSE_BUCKETS,
    registers: [registry],
  });
  const gcPause = new Histogram({
    name: "switchyard_gc_pause_seconds",
    help: "Garbage collection pauses by kind (major, minor, incremental, weakcb).",
    labelNames: ["kind"] as const,
    buckets: PAUSE_BUCKETS,
    registers: [registry],
  });

  let due = performance.now() + LOOP_SAMPLE_MS;
  const sampler = setInterval(() => {
    const now = performance.now();
    loopDelay.observe(Math.max(0, now - due) / 1000);
    due = now + LOOP_SAMPLE_MS;
  }, LOOP_SAMPLE_MS);
  sampler.unref();

  const gc = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcPause.observe({ kind: gcKind(entry) }, entry.duration / 1000);
  });
  gc.observe({ entryTypes: ["gc"] });

  return () => {
    clearInterval(sampler);
    gc.disconnect();
  };
}

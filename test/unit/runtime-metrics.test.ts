// The event-loop delay and GC pause histograms (src/observability/runtime-metrics.ts) fill while a
// process runs, and a stall shows as a loop delay of its length.
import { expect, it } from "vitest";
import { Metrics } from "../../src/observability/metrics.ts";

function sampleCount(text: string, metric: string): number {
  let n = 0;
  for (const line of text.split("\n"))
    if (line.startsWith(`${metric}_count`)) n += Number(line.slice(line.lastIndexOf(" ") + 1));
  return n;
}

function bucket(text: string, metric: string, le: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${metric}_bucket{le="${le}"}`));
  return Number(line?.slice(line.lastIndexOf(" ") + 1));
}

it("counts loop delays and GC pauses, and a 120 ms stall lands above the 100 ms bucket", async () => {
  const metrics = new Metrics({ defaultMetrics: true });
  try {
    await new Promise((r) => setTimeout(r, 100));
    const stallFrom = performance.now();
    while (performance.now() - stallFrom < 120); // a synchronous stall
    let garbage: number[][] = [];
    for (let i = 0; i < 200_000; i++) garbage.push([i, i + 1]);
    garbage = [];
    await new Promise((r) => setTimeout(r, 100));
    const text = await metrics.registry.metrics();
    const loop = "switchyard_event_loop_delay_seconds";
    expect(sampleCount(text, loop)).toBeGreaterThan(3);
    expect(sampleCount(text, loop) - bucket(text, loop, "0.1")).toBeGreaterThanOrEqual(1);
    expect(sampleCount(text, "switchyard_gc_pause_seconds")).toBeGreaterThan(0);
    expect(text).toMatch(
      /switchyard_gc_pause_seconds_count\{kind="(minor|major|incremental|weakcb)"\} [1-9]/,
    );
    expect(garbage).toEqual([]);
  } finally {
    metrics.stopRuntimeMetrics();
  }
});

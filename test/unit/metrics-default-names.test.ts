// Node's process metrics once came out as `switchyard_process_process_resident_memory_bytes` (and
// `switchyard_process_nodejs_…`): prom-client's default names already begin with `process_` or
// `nodejs_`, and the prefix added another. Each name carries `switchyard_` once, then the default name.
import { expect, it } from "vitest";
import { Metrics } from "../../src/observability/metrics.ts";

it("names the default process metrics switchyard_process_… and switchyard_nodejs_…, without a doubled process", async () => {
  const metrics = new Metrics({ defaultMetrics: true });
  const names = (await metrics.registry.getMetricsAsJSON()).map((m) => m.name);
  expect(names).toContain("switchyard_process_resident_memory_bytes");
  expect(names).toContain("switchyard_process_cpu_seconds_total");
  expect(names).toContain("switchyard_nodejs_eventloop_lag_p99_seconds");
  expect(names.filter((n) => /process_process_|process_nodejs_/.test(n))).toEqual([]);
  expect(names.filter((n) => !n.startsWith("switchyard_"))).toEqual([]);
});

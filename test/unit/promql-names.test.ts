// The metric-name reader the dashboard and alert checks rely on: it must find every name and nothing else.
import { describe, expect, it } from "vitest";
import { familyOf, metricNames, parseExposition } from "../support/promql-names.ts";

describe("metricNames", () => {
  it.each([
    ["up", ["up"]],
    ['sum by (sink, le) (rate(a_bucket{sink=~"$sink", le!="+Inf"}[$__rate_interval]))', ["a_bucket"]],
    ["histogram_quantile(0.99, sum without (instance) (rate(b_bucket[5m] offset 1h)))", ["b_bucket"]],
    ['sum(rate(c_total[10m])) > 0 unless sum(rate(d_total{result="ok"}[10m])) > 0', ["c_total", "d_total"]],
    ["e / on(job) group_left(version) f * 1e3 + 0.5", ["e", "f"]],
    ['label_replace(g, "dst", "$1 rate(x_total)", "src", "(.*)") or vector(0)', ["g"]],
    ["max_over_time(h[1h:5m]) and bool i == Inf", ["h", "i"]],
    ["60 * sum by (tenant, error_class) (rate(j:recorded_rate5m[${__range}]))", ["j:recorded_rate5m"]],
    ["k + k", ["k"]],
  ])("%s", (expr, names) => {
    expect(metricNames(expr)).toEqual(names);
  });
});

describe("scrape families", () => {
  const scrape = parseExposition(
    [
      "# HELP lat_seconds x",
      "# TYPE lat_seconds histogram",
      'lat_seconds_bucket{le="1"} 2',
      "lat_seconds_sum 1.5",
      "lat_seconds_count 2",
      "# TYPE q summary",
      "q_sum 1",
      "# TYPE jobs_count gauge",
      "# TYPE hits_total counter",
      'hits_total{a="b"} 3',
      "",
    ].join("\n"),
  );

  it("maps _bucket, _sum and _count onto the histogram, not onto anything that ends so", () => {
    expect(familyOf("lat_seconds_bucket", scrape)).toBe("lat_seconds");
    expect(familyOf("lat_seconds_count", scrape)).toBe("lat_seconds");
    expect(familyOf("q_sum", scrape)).toBe("q");
    expect(familyOf("q_bucket", scrape)).toBeUndefined();
    expect(familyOf("jobs_count", scrape)).toBe("jobs_count");
    expect(familyOf("hits_total_count", scrape)).toBeUndefined();
    expect(familyOf("missing_total", scrape)).toBeUndefined();
  });

  it("records which series have samples", () => {
    expect([...scrape.sampled].sort()).toEqual([
      "hits_total",
      "lat_seconds_bucket",
      "lat_seconds_count",
      "lat_seconds_sum",
      "q_sum",
    ]);
  });
});

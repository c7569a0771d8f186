// The Grafana dashboard and the Prometheus alert rules in deploy/ read only metrics a live gateway
// exposes: a gateway (every role, default process metrics on) is driven through a delivery, a dead
// letter, a config error, an opened breaker, a failed signature and an outbound fanout, then every
// metric name in their expressions must be in its /metrics scrape, with samples.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { Metrics } from "../../src/observability/metrics.ts";
import { type Exposition, familyOf, metricNames, parseExposition } from "../support/promql-names.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";
import { type TestGateway, eventually, startTestGateway, testConfig } from "../support/test-gateway.ts";
import { admin } from "./admin-fixtures.ts";

interface Dashboard {
  panels: { title: string; targets?: { expr: string }[] }[];
  templating: { list: { name: string; type: string; query?: unknown }[] };
}
interface RuleFile {
  groups: { rules: { alert?: string; record?: string; expr: string }[] }[];
}

const dashboard = JSON.parse(readFileSync("deploy/grafana/switchyard.json", "utf8")) as Dashboard;
const rules = parse(readFileSync("deploy/prometheus/alerts.yml", "utf8")) as RuleFile;

/** Every expression of the dashboard (panel targets, template queries) and of the rules, with where it is. */
function expressions(): { where: string; expr: string }[] {
  const out = dashboard.panels.flatMap((p) =>
    (p.targets ?? []).map((t) => ({ where: `panel "${p.title}"`, expr: t.expr })),
  );
  for (const v of dashboard.templating.list) {
    if (v.type !== "query") continue;
    const query = typeof v.query === "string" ? v.query : (v.query as { query: string }).query;
    // Grafana's label_values(metric, label) is not PromQL: its first argument is the metric.
    const metric = /^label_values\(\s*([^,\s)]+)/.exec(query)?.[1];
    out.push({ where: `variable $${v.name}`, expr: metric ?? query });
  }
  for (const g of rules.groups)
    for (const r of g.rules) out.push({ where: `rule ${r.alert ?? r.record}`, expr: r.expr });
  return out;
}

/**
 * Counters nothing short of a crash or a lost lease increments (recovery re-enqueues, fenced writes):
 * the scrape must declare them; samples are not required.
 */
const RARE = new Set([
  "switchyard_recovery_reenqueued_total",
  "switchyard_dispatch_fenced_writes_total",
  "switchyard_outbound_fenced_writes_total",
]);

/** What is wrong with each referenced name, given a scrape; empty when nothing is. */
function problems(scrape: Exposition): string[] {
  const out: string[] = [];
  for (const { where, expr } of expressions()) {
    for (const name of metricNames(expr)) {
      const family = familyOf(name, scrape);
      if (family === undefined) out.push(`${where}: ${name} is not in the scrape`);
      else if (!scrape.sampled.has(name) && !RARE.has(family))
        out.push(
          `${where}: ${name} has no samples${family !== name ? "" : " (a histogram needs _bucket, _sum or _count)"}`,
        );
    }
  }
  return out;
}

let ok: Receiver;
let gone: Receiver;
let refused: Receiver;
let down: Receiver;
let gw: TestGateway;

beforeAll(async () => {
  [ok, gone, refused, down] = await Promise.all([
    startReceiver({ fallback: 200 }),
    startReceiver({ fallback: 410 }),
    startReceiver({ fallback: 401 }),
    startReceiver({ fallback: 503 }),
  ]);
  gw = await startTestGateway(
    testConfig({
      dispatch: {
        retry: { base_ms: 20, max_ms: 50, max_attempts: 3, max_elapsed_ms: 60_000 },
        breaker: { failures: 2, open_ms: 60_000, max_open_ms: 60_000 },
      },
      outbound: { allow_private: true, timeout_ms: 1000 },
      sinks: {
        ok: { type: "http", url: `${ok.url}/in` },
        gone: { type: "http", url: `${gone.url}/in` },
        refused: { type: "http", url: `${refused.url}/in` },
        down: { type: "http", url: `${down.url}/in` },
      },
      sources: {
        src: { verify: { type: "none" }, sinks: ["ok", "gone", "refused", "down"] },
        gh: { verify: { type: "github", secrets: ["a-github-secret"] }, sinks: ["ok"] },
      },
    }),
    { metrics: new Metrics({ defaultMetrics: true }) },
  );
});

afterAll(async () => {
  await gw?.stop();
  await Promise.all([ok, gone, refused, down].map((r) => r?.close()));
});

describe("deploy/ dashboards and alerts", () => {
  it("parse names out of every expression (the dashboard has panels for each area)", () => {
    const names = new Set(expressions().flatMap((e) => metricNames(e.expr)));
    for (const expected of [
      "switchyard_ingest_requests_total",
      "switchyard_delivery_latency_seconds_bucket",
      "switchyard_dispatch_attempts_total",
      "switchyard_dispatch_dead_lettered_total",
      "switchyard_breaker_state",
      "switchyard_queue_jobs",
      "switchyard_outbound_attempts_total",
      "switchyard_dispatch_config_errors_total",
    ])
      expect(names, expected).toContain(expected);
    expect([...names].filter((n) => !n.startsWith("switchyard_"))).toEqual([]);
  });

  it("reference only metrics a live /metrics scrape has", async () => {
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${gw.url}/webhooks/src`, { method: "POST", body: `{"n":${i}}` });
      expect(res.status).toBe(202);
    }
    const unsigned = await fetch(`${gw.url}/webhooks/gh`, { method: "POST", body: "{}" });
    expect(unsigned.status).toBe(401);
    for (const url of [`${ok.url}/ep`, `${gone.url}/ep`]) {
      const res = await admin(gw, "POST", "/v1/endpoints", { body: { url, event_types: ["order.*"] } });
      expect(res.status).toBe(201);
    }
    expect(
      (await admin(gw, "POST", "/v1/events", { body: { id: "e1", type: "order.paid", payload: {} } })).status,
    ).toBe(202);

    // Everything the drive produces has arrived once nothing is missing but what it cannot produce.
    let last: string[] = [];
    await eventually(
      async () => {
        const res = await fetch(`${gw.url}/metrics`);
        expect(res.status).toBe(200);
        last = problems(parseExposition(await res.text()));
        return last.length === 0;
      },
      20_000,
      "every referenced metric to have samples",
    ).catch(() => undefined);
    expect(last).toEqual([]);
  });
});

// Prometheus's own tool on deploy/: the alert rules load (`promtool check rules`), behave as their unit
// tests say (`promtool test rules`), and every dashboard query is valid PromQL (checked as recording
// rules, Grafana's variables given values). promtool comes from Debian's `prometheus` package, which
// `npm test`'s pretest installs; without it the first test fails, naming the command.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";

function findPromtool(): string | undefined {
  try {
    return execFileSync("sh", ["-c", "command -v promtool"], { encoding: "utf8" }).trim() || undefined;
  } catch {
    return undefined;
  }
}

const promtool = findPromtool();

// `npm test` installs it first (scripts/test-prereqs.mjs): a missing promtool fails, it is not skipped.
it("promtool is installed", () => {
  expect(
    promtool,
    "promtool is not on PATH: run apt-get install --no-install-recommends prometheus (npm test's pretest does)",
  ).toBeDefined();
});

function run(...args: string[]): { code: number | null; out: string } {
  const r = spawnSync(promtool as string, args, { encoding: "utf8" });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

const dir = mkdtempSync(join(tmpdir(), "sy-promtool-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Grafana's variables as a query would see them once a dashboard is shown. */
function asPromql(expr: string): string {
  return expr
    .replace(/\$__rate_interval|\$__interval|\$\{__interval\}/g, "1m")
    .replace(/\$__range|\$\{__range\}/g, "6h")
    .replace(/\$\{?sink\}?/g, ".*");
}

describe.skipIf(!promtool)("promtool on deploy/prometheus", () => {
  it("check rules: the alert rules load", () => {
    const { code, out } = run("check", "rules", "deploy/prometheus/alerts.yml");
    expect(out).toMatch(/SUCCESS: \d+ rules found/);
    expect(code).toBe(0);
  });

  it("test rules: the alerts fire when and only when their unit tests say", () => {
    const { code, out } = run("test", "rules", "deploy/prometheus/alerts.test.yml");
    expect(out).toContain("SUCCESS");
    expect(code).toBe(0);
  });

  it("every dashboard query is valid PromQL", () => {
    const dashboard = JSON.parse(readFileSync("deploy/grafana/switchyard.json", "utf8")) as {
      panels: { targets?: { expr: string }[] }[];
    };
    const exprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => asPromql(t.expr)));
    expect(exprs.length).toBeGreaterThan(20);
    const file = join(dir, "dashboard-queries.yml");
    const rules = exprs.map((expr, i) => ({ record: `switchyard_dashboard_query_${i}`, expr }));
    writeFileSync(file, stringify({ groups: [{ name: "dashboard", rules }] }));
    const { code, out } = run("check", "rules", file);
    expect(out).toContain(`SUCCESS: ${exprs.length} rules found`);
    expect(code).toBe(0);

    // The check is real: a query with a syntax error fails it.
    writeFileSync(file, stringify({ groups: [{ name: "bad", rules: [{ record: "x", expr: "sum by (" }] }] }));
    expect(run("check", "rules", file).code).not.toBe(0);
  });
});

// `npm run bench -- --quick` as a smoke test: the whole suite runs (every scenario's script as a child,
// each beside its baseline) and writes its report, every scenario with a table of finite figures for
// Switchyard, the baseline and their ratio. It never asserts a speed: a quick run's figures mean
// nothing, and this machine is shared. Needs redis-server on the PATH and RabbitMQ at 127.0.0.1:5672.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { SCENARIOS } from "../../bench/suite/steps.ts";
import { ROOT, buildOnce } from "../support/built-dist.ts";

/** The suite takes a minute or two; more on a loaded machine. */
const SUITE_TIMEOUT_MS = 230_000;

interface ReportRow {
  readonly measure: string;
  readonly switchyard: unknown;
  readonly baseline: unknown;
  readonly ratio: unknown;
}
interface Report {
  readonly meta: { readonly cores: number; readonly quick: boolean; readonly commit: string };
  readonly scenarios: readonly { readonly id: string; readonly title: string; readonly rows: ReportRow[] }[];
  readonly failures: readonly string[];
}

const out = mkdtempSync(join(tmpdir(), "bench-quick-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

// The Procfile runs the compiled build; built here so the suite's own budget is the suite's.
beforeAll(() => buildOnce(), 120_000);

function runSuite(): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "bench/suite/main.ts", "--quick", "--out", out], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const keep = (chunk: Buffer): void => void (output = (output + chunk.toString()).slice(-20_000));
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  // Stopped with SIGTERM the suite stops its current step and cleans up.
  const timer = setTimeout(() => child.kill("SIGTERM"), SUITE_TIMEOUT_MS);
  return new Promise((resolve) =>
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    }),
  );
}

it(
  "runs every scenario beside its baseline and reports finite figures in the .json and a section in the .md",
  async () => {
    const { code, output } = await runSuite();
    expect(code, output).toBe(0);

    const files = readdirSync(out).sort();
    const md = files.find((f) => /^\d{4}-\d{2}-\d{2}-quick\.md$/.test(f));
    const json = files.find((f) => /^\d{4}-\d{2}-\d{2}-quick\.json$/.test(f));
    expect(md, files.join(", ")).toBeDefined();
    expect(json, files.join(", ")).toBeDefined();

    const report = JSON.parse(readFileSync(join(out, json!), "utf8")) as Report;
    expect(report.failures).toEqual([]);
    expect(report.meta.quick).toBe(true);
    expect(report.meta.cores).toBe(cpus().length);
    expect(report.meta.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(report.scenarios.map((s) => s.id)).toEqual([...SCENARIOS]);
    for (const scenario of report.scenarios) {
      expect(scenario.rows.length, scenario.id).toBeGreaterThan(0);
      for (const row of scenario.rows) {
        const where = `${scenario.id}: ${row.measure}`;
        for (const figure of [row.switchyard, row.baseline, row.ratio]) {
          expect(typeof figure === "number" && Number.isFinite(figure), where).toBe(true);
        }
      }
    }

    const text = readFileSync(join(out, md!), "utf8");
    expect(text).toMatch(/^- Git commit: `[0-9a-f]{40}`/m);
    expect(text).toContain(`- Cores: ${cpus().length} `);
    expect(text).toMatch(/^- Command: `.*--quick.*`$/m);
    for (const scenario of report.scenarios) {
      const section = text.split(`\n## ${scenario.title}\n`)[1]?.split("\n## ")[0] ?? "";
      expect(section, scenario.title).toContain("| measure | Switchyard (");
      for (const row of scenario.rows) expect(section, scenario.title).toContain(`| ${row.measure}`);
    }
  },
  SUITE_TIMEOUT_MS + 10_000,
);

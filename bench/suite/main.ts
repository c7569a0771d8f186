// npm run bench — every benchmark scenario, each beside its bare baseline in the same run, as one
// report: bench/results/<YYYY-MM-DD>.md and .json (ratios first: this machine is shared and noisy).
// Each scenario is its own script (bench/scenarios/<name>/main.ts) run as a child with --json (and
// --quick); see steps.ts for which, sections.ts for what each table shows.
//
//   npm run bench -- [--quick] [--only ingest,e2e,latency,memory,fanout,dlq] [--out DIR]
//
// --quick is a smoke run of a minute or two (its figures mean nothing); a quick or partial run is
// written as <date>-quick[-<scenarios>].md so it never replaces a full run's file. The log of every
// child's output goes beside the results as <name>.log (git-ignored).
import { execFileSync } from "node:child_process";
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { type DevRedis, startPrivateRedis } from "../../src/runtime/dev-redis.ts";
import { buildIfNeeded } from "../../test/support/procfile.ts";
import { Progress, runChild, stopChild } from "./child.ts";
import { type Meta, markdown } from "./report.ts";
import { sections } from "./sections.ts";
import { SCENARIOS, type Scenario, type StepResults, steps } from "./steps.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const argv = process.argv.slice(2);
const { values: args } = parseArgs({
  args: argv,
  options: {
    quick: { type: "boolean", default: false },
    only: { type: "string" },
    out: { type: "string" },
  },
});
const only = args.only?.split(",").map((s) => s.trim()) ?? [];
for (const s of only) {
  if (!(SCENARIOS as readonly string[]).includes(s))
    throw new Error(`--only: unknown scenario "${s}" (known: ${SCENARIOS.join(", ")})`);
}
const selected: Scenario[] = SCENARIOS.filter((s) => only.length === 0 || only.includes(s));
const quick = args.quick;

const git = (...a: string[]): string =>
  execFileSync("git", a, { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
const started = new Date();
const loadAtStart = loadavg();
// The code measured is the code at the start (a commit made while the suite runs is not in it).
const commit = git("rev-parse", "HEAD");
const dirty = git("status", "--porcelain", "--untracked-files=no") !== "";
const pad = (n: number): string => String(n).padStart(2, "0");
const date = `${started.getFullYear()}-${pad(started.getMonth() + 1)}-${pad(started.getDate())}`;
const quote = (a: string): string => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replaceAll("'", `'\\''`)}'`);
const command =
  process.env.npm_lifecycle_event === "bench"
    ? `npm run bench${argv.length ? ` -- ${argv.map(quote).join(" ")}` : ""}`
    : `npx tsx bench/suite/main.ts ${argv.map(quote).join(" ")}`.trim();
const name = [date, ...(quick ? ["quick"] : []), ...(only.length ? selected : [])].join("-");
const outDir = args.out ?? join(ROOT, "bench", "results");
mkdirSync(outDir, { recursive: true });
const log = createWriteStream(join(outDir, `${name}.log`));
const jsonDir = mkdtempSync(join(tmpdir(), "bench-suite-"));
const progress = new Progress();
let redis: DevRedis | undefined;

let aborting = false;
async function abort(signal: NodeJS.Signals): Promise<never> {
  aborting = true;
  progress.finish(`stopped by ${signal}`);
  await stopChild();
  await redis?.stop();
  rmSync(jsonDir, { recursive: true, force: true });
  process.exit(130);
}
process.once("SIGINT", (s) => void abort(s));
process.once("SIGTERM", (s) => void abort(s));

const plan = steps(new Set(selected), quick);
const results: StepResults = {};
const failures: string[] = [];
process.stderr.write(
  `npm run bench: ${selected.join(", ")}${quick ? " (quick)" : ""}; ${plan.length} steps; log ${relative(process.cwd(), join(outDir, `${name}.log`))}\n`,
);
if (plan.some((s) => s.procfile)) {
  process.stderr.write("building dist/ for the Procfile's roles (skipped when up to date)…\n");
  process.stderr.write(`  ${await buildIfNeeded(["web", "worker"])}\n`);
}
for (const [i, step] of plan.entries()) {
  progress.step(i + 1, plan.length, step.label);
  const file = join(jsonDir, `${step.id}.json`);
  log.write(`\n===== ${step.label}: ${step.script} ${step.args.join(" ")} =====\n`);
  const t0 = Date.now();
  let outcome = "";
  try {
    redis = step.privateRedis ? await startPrivateRedis() : undefined;
    const env = { ...step.env, ...(redis ? { REDIS_URL: redis.url } : {}) };
    const exit = await runChild(
      { script: step.script, args: [...step.args, "--json", file], env, cwd: ROOT },
      log,
      progress,
    );
    if (exit.code !== 0) throw new Error(`exited with ${exit.code ?? exit.signal}`);
    const parsed: unknown = step.schema.parse(JSON.parse(readFileSync(file, "utf8")));
    Object.assign(results, { [step.id]: parsed });
    outcome = `done in ${Math.round((Date.now() - t0) / 1000)} s`;
  } catch (err) {
    outcome = `FAILED: ${(err as Error).message.split("\n")[0]}`;
    failures.push(`${step.label}: ${(err as Error).message.split("\n")[0]}`);
  } finally {
    await redis?.stop();
    redis = undefined;
  }
  if (!aborting) progress.finish(outcome);
}
progress.stop();

const finished = new Date();
const meta: Meta = {
  date,
  startedAt: started.toISOString(),
  finishedAt: finished.toISOString(),
  durationS: (finished.getTime() - started.getTime()) / 1000,
  commit,
  dirty,
  node: process.version,
  cores: cpus().length,
  cpu: cpus()[0]?.model.trim() ?? "unknown CPU",
  loadAverage: loadAtStart,
  command,
  quick,
  only,
};
const report = sections(selected, results);
const md = markdown(meta, report, failures);
writeFileSync(join(outDir, `${name}.md`), md);
writeFileSync(
  join(outDir, `${name}.json`),
  `${JSON.stringify({ meta, scenarios: report, failures, steps: results }, null, 2)}\n`,
);
rmSync(jsonDir, { recursive: true, force: true });
await new Promise((r) => log.end(r));
process.stdout.write(`\n${md}\nwritten: ${join(outDir, `${name}.md`)} and .json\n`);
process.exit(failures.length === 0 ? 0 : 1);

// The package people install: `npm pack` (its prepack builds dist/) in a copy of the repository's
// build inputs, so the checkout's own dist/ is never rebuilt under other tests; the tarball installed
// with `npm install --omit=dev` into a temp dir; its `switchyard` run from another directory against
// the real Redis: `start` takes a hook (202) and delivers it, `worker` starts, `check-config` checks.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import { Keys } from "../../src/store/keys.ts";
import { CURRENT_LAYOUT } from "../../src/store/layout/layouts.ts";
import { ROOT } from "../support/built-dist.ts";
import { REDIS_URL, deletePrefix, eventually } from "../support/test-gateway.ts";

/** What `npm run build` and `npm pack` read. */
const PACK_INPUTS = [
  "src",
  "workers",
  "packages/client/package.json",
  "packages/client/src",
  "config",
  "scripts",
  "bin",
  "tsconfig.json",
  "tsconfig.build.json",
  "package.json",
  "package-lock.json",
  "README.md",
  "CHANGELOG.md",
];

const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  version: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

let dir: string;
let tarball: string;
let bin: string;
let elsewhere: string;
let packedFiles: string[];
const prefix = `pkg${randomBytes(5).toString("hex")}`;
const redis = new Redis(REDIS_URL);
const children: ChildProcess[] = [];

function run(
  cmd: string,
  args: string[],
  cwd: string,
  timeoutMs = 90_000,
): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd, timeout: timeoutMs, maxBuffer: 16 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "switchyard-pkg-"));
  const checkout = join(dir, "checkout");
  mkdirSync(checkout);
  for (const input of PACK_INPUTS) cpSync(join(ROOT, input), join(checkout, input), { recursive: true });
  symlinkSync(join(ROOT, "node_modules"), join(checkout, "node_modules"), "dir");
  // Packing builds (a full type-check and emit): minutes on a loaded machine.
  const packed = await run("npm", ["pack", "--pack-destination", dir], checkout, 240_000);
  expect(packed.code, packed.out).toBe(0);
  tarball = join(dir, `switchyard-${pkg.version}.tgz`);
  packedFiles = (await run("tar", ["-tzf", tarball], dir)).out.trim().split("\n");

  const app = join(dir, "app");
  mkdirSync(app);
  writeFileSync(join(app, "package.json"), '{"name":"switchyard-install-test","private":true}\n');
  const installed = await run(
    "npm",
    ["install", "--omit=dev", "--prefer-offline", "--no-audit", "--no-fund", tarball],
    app,
  );
  expect(installed.code, installed.out).toBe(0);
  bin = join(app, "node_modules", ".bin", "switchyard");

  elsewhere = join(dir, "elsewhere");
  mkdirSync(elsewhere);
  writeFileSync(
    join(elsewhere, "gateway.yaml"),
    [
      `redis: { url: "${REDIS_URL}", prefix: ${prefix} }`,
      "http: { port: 0, host: 127.0.0.1, metrics_port: 0 }",
      'admin: { tokens: ["package-test-token-0123456789"] }',
      "sinks: { audit: { type: log } }",
      "sources: { demo: { verify: { type: none }, dedup: body, sinks: [audit], allow_non_durable: true } }",
      "",
    ].join("\n"),
  );
}, 330_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  await deletePrefix(redis, prefix);
  redis.disconnect();
  rmSync(dir, { recursive: true, force: true });
});

/** Start the installed `switchyard` with `args` in the other directory; its log lines as they come. */
function startInstalled(args: string[]) {
  const child = spawn(bin, args, { cwd: elsewhere, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  const line = (msg: string) =>
    eventually(
      () =>
        out
          .split("\n")
          .filter((l) => l.startsWith("{"))
          .map((l) => JSON.parse(l) as Record<string, unknown>)
          .find((l) => l.msg === msg),
      // Under the test's own 30 s, so a process that never comes up fails with its output.
      20_000,
      `"${msg}" from switchyard ${args.join(" ")}; output so far:\n${out}`,
    );
  return { child, exited, line, output: () => out };
}

it("packs dist/ and bin/ with the changelog, no sources, tests or build stamp", () => {
  const files = packedFiles.map((f) => f.replace(/^package\//, ""));
  for (const needed of [
    "bin/switchyard.mjs",
    "dist/src/cli/main.js",
    "dist/workers/main.js",
    "dist/workers/web.js",
    "dist/workers/worker.js",
    "dist/config/default.yaml",
    "dist/src/store/lua/persist-hooks-n.lua",
    "dist/src/queue/bullmq/add-standard-job.lua",
    "CHANGELOG.md",
    "README.md",
    "package.json",
  ])
    expect(files).toContain(needed);
  expect(files.filter((f) => /^(src|test|workers|scripts|bench)\//.test(f) || f.endsWith(".ts"))).toEqual([]);
  expect(files).not.toContain("dist/.inputs-sha256");
});

it("installs without any dev dependency", () => {
  const modules = join(dir, "app", "node_modules");
  expect(existsSync(join(modules, "switchyard", "dist", "src", "cli", "main.js"))).toBe(true);
  expect(Object.keys(pkg.devDependencies).filter((name) => existsSync(join(modules, name)))).toEqual([]);
});

it("switchyard check-config works from the installed package, in another directory", async () => {
  const checked = await run(bin, ["check-config", "--config", "gateway.yaml", "--roles", "api"], elsewhere);
  expect(checked.code, checked.out).toBe(0);
  expect(checked.out).toContain("ok: gateway.yaml is valid (1 source, 1 sink)");
});

it("switchyard start --config runs every role: a hook is taken (202) and delivered; SIGTERM exits 0", async () => {
  const gw = startInstalled(["start", "--config", "gateway.yaml", "--roles", "api,dispatch,recovery"]);
  const listening = await gw.line("switchyard listening");
  expect(listening.roles).toEqual(["api", "dispatch", "recovery"]);
  const res = await fetch(`http://127.0.0.1:${listening.port as number}/webhooks/demo`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ packaged: randomBytes(4).toString("hex") }),
  });
  expect(res.status).toBe(202);
  const { id } = (await res.json()) as { id: string };
  // The log sink's line is the delivery.
  const delivered = await gw.line("hook received");
  expect(delivered).toMatchObject({ hook_id: id, sink: "audit", source: "demo" });
  expect(await redis.get(new Keys(prefix).layoutVersion)).toBe(String(CURRENT_LAYOUT));
  gw.child.kill("SIGTERM");
  expect(await gw.exited).toBe(0);
});

it("switchyard worker starts the delivery roles only", async () => {
  const worker = startInstalled(["worker", "--config", "gateway.yaml"]);
  const up = await worker.line("serving /metrics, /healthz and /readyz");
  expect(up.roles).toEqual(["dispatch", "recovery"]);
  worker.child.kill("SIGTERM");
  expect(await worker.exited).toBe(0);
});

it("the Dockerfile's runtime command and the Procfile's name files the package holds", () => {
  const files = new Set(packedFiles.map((f) => f.replace(/^package\//, "")));
  const procfile = readFileSync(join(ROOT, "Procfile"), "utf8");
  for (const [, file] of procfile.matchAll(/node (\S+\.js)/g))
    expect(files.has(file as string), file).toBe(true);
  const tarPkg = JSON.parse(
    readFileSync(join(dir, "app", "node_modules", "switchyard", "package.json"), "utf8"),
  ) as typeof pkg;
  // The image installs the unpacked package with `npm ci` and the repository's lockfile: it must agree.
  expect(tarPkg.dependencies).toEqual(pkg.dependencies);
  expect(tarPkg.devDependencies).toEqual(pkg.devDependencies);
});

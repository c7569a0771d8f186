// The client as an application gets it: `npm pack -w packages/client` (its prepack compiles dist/),
// the tarball installed into an empty temp dir with its own dependencies only, and a plain Node script
// there runs the README's client example (it publishes an event) against a running gateway.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ROOT } from "../../../test/support/built-dist.ts";
import {
  ADMIN_TOKEN,
  type TestGateway,
  startTestGateway,
  testConfig,
} from "../../../test/support/test-gateway.ts";

const manifest = JSON.parse(readFileSync(join(ROOT, "packages/client/package.json"), "utf8")) as {
  version: string;
  dependencies: Record<string, string>;
};

function runWith(
  cmd: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd, env, timeout: 150_000, maxBuffer: 16 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}

const run = (cmd: string, args: string[], cwd: string) => runWith(cmd, args, cwd, process.env);

let dir: string;
let app: string;
let files: string[];
let gw: TestGateway;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "switchyard-client-pkg-"));
  const packed = await run("npm", ["pack", "-w", "packages/client", "--pack-destination", dir], ROOT);
  expect(packed.code, packed.out).toBe(0);
  const tarball = join(dir, `switchyard-client-${manifest.version}.tgz`);
  files = (await run("tar", ["-tzf", tarball], dir)).out.trim().split("\n");
  app = join(dir, "app");
  mkdirSync(app);
  writeFileSync(join(app, "package.json"), '{"name":"publisher","private":true,"type":"module"}\n');
  const installed = await run(
    "npm",
    ["install", "--prefer-offline", "--no-audit", "--no-fund", tarball],
    app,
  );
  expect(installed.code, installed.out).toBe(0);
  gw = await startTestGateway(
    testConfig({
      outbound: { allow_private: true },
      sinks: { log: { type: "log" } },
      sources: { src: { verify: { type: "none" }, sinks: ["log"], allow_non_durable: true } },
    }),
  );
}, 300_000);

afterAll(async () => {
  await gw?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it("packs the compiled client and its types, no sources or tests", () => {
  const packed = files.map((f) => f.replace(/^package\//, ""));
  for (const needed of [
    "package.json",
    "dist/index.js",
    "dist/index.d.ts",
    "dist/schema.d.ts",
    "dist/verify.js",
  ])
    expect(packed).toContain(needed);
  expect(packed.filter((f) => f.startsWith("src/") || f.startsWith("test/"))).toEqual([]);
});

it("installs with only its own dependencies", () => {
  const modules = readdirSync(join(app, "node_modules")).filter((name) => !name.startsWith("."));
  for (const dep of Object.keys(manifest.dependencies)) expect(modules).toContain(dep);
  // openapi-fetch's helpers, standardwebhooks' two: nothing of the gateway's.
  expect(modules).not.toContain("hono");
  expect(modules).not.toContain("ioredis");
  expect(modules.length).toBeLessThanOrEqual(8);
});

it("runs the README's client example from the installed package against a running gateway", async () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const region = readme.slice(readme.indexOf("<!-- readme-test: client -->"));
  const example = /```js\n([\s\S]*?)```/.exec(region.slice(0, region.indexOf("<!-- /readme-test -->")))?.[1];
  expect(example).toBeDefined();
  writeFileSync(join(app, "example.mjs"), example!);
  const env = { ...process.env, SWITCHYARD_URL: gw.url, SWITCHYARD_ADMIN_TOKEN: ADMIN_TOKEN };
  const result = await runWith(process.execPath, ["example.mjs"], app, env);
  expect(result.code, result.out).toBe(0);
  expect(result.out.split("\n")[0]).toBe("order-43-paid 1");
});

it("gives the API's error code on a refusal", async () => {
  writeFileSync(
    join(app, "refused.mjs"),
    [
      'import { createSwitchyardClient, SwitchyardApiError } from "@switchyard/client";',
      "const client = createSwitchyardClient({ baseUrl: process.argv[2], token: process.argv[3] });",
      'const refused = await client.events.get("missing").catch((e) => e instanceof SwitchyardApiError && e.code);',
      "console.log(refused);",
    ].join("\n"),
  );
  const result = await run(process.execPath, ["refused.mjs", gw.url, ADMIN_TOKEN], app);
  expect(result).toMatchObject({ code: 0, out: "not_found\n" });
});

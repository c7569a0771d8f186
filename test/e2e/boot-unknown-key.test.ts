// A typo in the config once booted with the default left in force (`retention_days: 3` ignored,
// records kept 7 days). Boot now refuses it like any invalid config: exit 78, naming the key path and
// the key probably meant, from every entry point.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import { REDIS_URL, deletePrefix } from "../support/test-gateway.ts";

let dir: string;
let file: string;
// Were the typo accepted (the defect), the processes would boot: on a prefix of their own, port 0.
const prefix = `t${randomBytes(5).toString("hex")}`;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "sy-boot-typo-"));
  file = join(dir, "switchyard.yaml");
  writeFileSync(
    file,
    [
      `redis: { url: "${REDIS_URL}", prefix: ${prefix} }`,
      "http: { port: 0, host: 127.0.0.1 }",
      "retention_days: 3",
      "sinks: { out: { type: http, url: 'http://127.0.0.1:9/in', timeout: 500 } }",
      "sources: { s: { verify: { type: none }, sinks: [out] } }",
      "",
    ].join("\n"),
  );
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  const redis = new Redis(REDIS_URL);
  await deletePrefix(redis, prefix);
  await redis.quit();
});

function boot(entry: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", entry], {
      env: { ...process.env, SWITCHYARD_CONFIG: file },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
    // A process that booted is stopped the way an operator would, so the test fails instead of hanging.
    const stop = setTimeout(() => child.kill("SIGTERM"), 20_000);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(stop);
      resolve({ code, stderr });
    });
  });
}

it("exits 78 on an unknown key, naming it and the key meant, from every entry point", async () => {
  const runs = await Promise.all(["workers/main.ts", "workers/web.ts", "workers/worker.ts"].map(boot));
  for (const run of runs) {
    expect(run.code).toBe(78);
    expect(run.stderr).toContain("retention_days: unknown key (did you mean retention_s?)");
    expect(run.stderr).toContain("sinks.out.timeout: unknown key (did you mean timeout_ms?)");
  }
}, 60_000);

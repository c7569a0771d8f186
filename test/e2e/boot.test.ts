// The entry points as an operator runs them: a bad config exits 78 naming the key, `npm start` without
// Redis brings up a private one, and SIGTERM drains and exits 0.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { freePort } from "../../src/runtime/dev-redis.ts";
import { runEntry as run } from "../support/entry-process.ts";
import { eventually } from "../support/test-gateway.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempConfig(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), "sy-boot-"));
  dirs.push(dir);
  const file = join(dir, "switchyard.yaml");
  writeFileSync(file, text);
  return file;
}

it("exits 78 on an invalid config, naming the key path", async () => {
  const file = tempConfig(
    "sinks: { out: { type: http, url: 'not a url' } }\nsources: { s: { verify: { type: none }, sinks: [out] } }\n",
  );
  const p = run("workers/main.ts", { SWITCHYARD_CONFIG: file });
  expect(await p.exited).toBe(78);
  expect(p.err()).toContain("sinks.out.url");
});

it("duplicate_list_entries: exits 78 on a sink listed twice in a source, naming the entry", async () => {
  const file = tempConfig(
    "sinks: { out: { type: http, url: 'http://127.0.0.1:9/in' } }\nsources: { s: { verify: { type: none }, sinks: [out, out] } }\n",
  );
  const p = run("workers/main.ts", { SWITCHYARD_CONFIG: file });
  expect(await p.exited).toBe(78);
  expect(p.err()).toMatch(/sources\.s\.sinks\.?\[1\]: "out" is listed twice/);
});

it("exits 78 on an unset variable without default", async () => {
  const file = tempConfig("redis: { url: '${SY_TEST_UNSET_VAR}' }\nsinks: {}\nsources: {}\n");
  const p = run("workers/main.ts", { SWITCHYARD_CONFIG: file });
  expect(await p.exited).toBe(78);
  expect(p.err()).toContain("SY_TEST_UNSET_VAR");
});

it("starts a private Redis when none answers, serves, and exits 0 on SIGTERM", async () => {
  const [deadRedis, port] = [await freePort(), await freePort()];
  const p = run("workers/main.ts", {
    REDIS_URL: `redis://127.0.0.1:${deadRedis}`,
    PORT: String(port),
    SWITCHYARD_CONFIG: "",
  });
  await eventually(() => p.out().includes("switchyard listening"), 20_000, "the gateway to listen");
  expect(p.out()).toContain("started a private redis-server for development; its data is throwaway");

  const res = await fetch(`http://127.0.0.1:${port}/webhooks/demo`, { method: "POST", body: '{"a":1}' });
  expect(res.status).toBe(202);
  expect(((await res.json()) as { id: string }).id).toMatch(/^hk_/);

  p.child.kill("SIGTERM");
  expect(await p.exited).toBe(0);
}, 40_000);

it("exits with a clear message when Redis is unreachable and no private one may start", async () => {
  const deadRedis = await freePort();
  const p = run("workers/web.ts", { REDIS_URL: `redis://127.0.0.1:${deadRedis}`, SWITCHYARD_CONFIG: "" });
  expect(await p.exited).toBe(69);
  expect(p.err()).toContain(`cannot reach Redis at redis://127.0.0.1:${deadRedis}`);
});

// Regression: the compiled all-roles entry (the Docker image's default command) also fell back to a
// private, throwaway Redis when REDIS_URL did not answer, so a mistyped URL acknowledged hooks into a
// Redis gone at the next restart. Only the sources run in development (`npm start`) may do that, and
// they say loudly that the data is throwaway.
import { beforeAll, expect, it } from "vitest";
import { freePort } from "../../src/runtime/dev-redis.ts";
import { buildOnce } from "../support/built-dist.ts";
import { DIST_MAIN, runEntry } from "../support/entry-process.ts";
import { eventually } from "../support/test-gateway.ts";

beforeAll(() => buildOnce(), 180_000);

it("the compiled all-roles entry exits 69 naming the URL instead of starting a throwaway Redis", async () => {
  const dead = await freePort();
  const p = runEntry(DIST_MAIN, { REDIS_URL: `redis://127.0.0.1:${dead}`, SWITCHYARD_CONFIG: "", PORT: "0" });
  const code = await Promise.race([
    p.exited,
    new Promise((r) => setTimeout(() => r("still running"), 20_000)),
  ]);
  expect(code).toBe(69);
  expect(p.err()).toContain(`switchyard: cannot reach Redis at redis://127.0.0.1:${dead}`);
  expect(p.out()).not.toContain("private");
}, 40_000);

it("the sources in development start a private Redis and warn that its data is throwaway", async () => {
  const dead = await freePort();
  const p = runEntry("workers/main.ts", {
    REDIS_URL: `redis://127.0.0.1:${dead}`,
    SWITCHYARD_CONFIG: "",
    PORT: "0",
  });
  await eventually(() => p.out().includes("switchyard listening"), 30_000, "the gateway to listen");
  const warning = p
    .out()
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as { level: number; msg: string })
    .find((l) => l.msg.includes("private redis-server"));
  expect(warning?.level).toBe(40);
  expect(warning?.msg).toMatch(/throwaway/);
  p.child.kill("SIGTERM");
  expect(await p.exited).toBe(0);
}, 60_000);

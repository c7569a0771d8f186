// The Procfile's worker logs one "delivered" line per delivery through the bounded, off-loop log output
// (src/observability/log-output.ts, wired in runtime/boot.ts); a SIGTERM right after the last delivery
// still finds every line in its stdout, and the process exits 0 only after they are written.
import { afterEach, beforeAll, expect, it } from "vitest";
import { buildOnce } from "../support/built-dist.ts";
import { roleUp } from "../support/procfile.ts";
import { procfileDeployment } from "../support/procfile-deployment.ts";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

beforeAll(() => buildOnce(), 120_000);

it("a worker stopped by SIGTERM right after N deliveries has written N delivered lines", async () => {
  const n = 300;
  const { port, rx, start } = await procfileDeployment(0, cleanups);
  const web = start("web");
  const worker = start("worker");
  await Promise.all([roleUp(web), roleUp(worker)]);

  const ids = await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const res = await fetch(`http://127.0.0.1:${port}/webhooks/src`, {
        method: "POST",
        body: `{"n":${i}}`,
      });
      expect(res.status).toBe(202);
      return ((await res.json()) as { id: string }).id;
    }),
  );
  await rx.waitForRequests(n, 30_000);
  process.kill(worker.child.pid!, "SIGTERM");
  expect(await worker.exited).toEqual({ code: 0, signal: null });

  const delivered = worker.lines().filter((l) => l.msg === "delivered");
  expect(new Set(delivered.map((l) => l.hook_id))).toEqual(new Set(ids));
  expect(worker.lines().filter((l) => l.level >= 50)).toEqual([]);
}, 90_000);

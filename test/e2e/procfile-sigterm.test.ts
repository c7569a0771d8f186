// procfile_sigterm_exit_1: one SIGTERM to the process a Procfile line starts must drain and exit 0.
// Under `npx tsx` it did not: npx exited 143 at once and left the gateway running unsupervised, and
// tsx, relaying a signal its child had also been sent, re-sent it, which the gateway took for a
// second signal and answered with exit 1 mid-attempt. The line is run as a platform runs it (through
// a shell, exec form, a process group of its own); the signal goes to the pid, as a container runtime
// sends it, or to the whole group, as a dyno manager does.
import { afterEach, beforeAll, expect, it } from "vitest";
import { sinkDeliveryId } from "../../src/domain/hook.ts";
import type { HookId } from "../../src/domain/ids.ts";
import { parseRow } from "../../src/store/delivery-row.ts";
import { Keys } from "../../src/store/keys.ts";
import { buildOnce } from "../support/built-dist.ts";
import { type Exit, type RoleProcess, roleUp } from "../support/procfile.ts";
import { type Deployment, procfileDeployment } from "../support/procfile-deployment.ts";
import { eventually } from "../support/test-gateway.ts";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

beforeAll(() => buildOnce(), 120_000);

/** A deployment whose receiver holds each delivery `holdMs` before answering 200. */
function deployment(holdMs: number): Promise<Deployment> {
  return procfileDeployment(holdMs, cleanups);
}

async function post(port: number, body: string): Promise<Response> {
  return fetch(`http://127.0.0.1:${port}/webhooks/src`, { method: "POST", body });
}

/** One clean stop: exit 0, one "shutting down", no error lines. */
function expectCleanStop(proc: RoleProcess, exit: Exit): void {
  expect({ role: proc.role, ...exit, stderr: proc.err() }).toEqual({
    role: proc.role,
    code: 0,
    signal: null,
    stderr: "",
  });
  const lines = proc.lines();
  expect(lines.filter((l) => l.msg === "shutting down")).toHaveLength(1);
  expect(lines.filter((l) => l.level >= 50)).toEqual([]);
}

for (const target of ["pid", "group"] as const) {
  it(`worker: one SIGTERM to the ${target} while an attempt is in flight finishes it, then exits 0`, async () => {
    const holdMs = 1500;
    const d = await deployment(holdMs);
    const web = d.start("web");
    const worker = d.start("worker");
    await Promise.all([roleUp(web), roleUp(worker)]);

    const res = await post(d.port, '{"in":"flight"}');
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    const [request] = await d.rx.waitForRequests(1, 20_000);

    const signalled = Date.now();
    process.kill(target === "pid" ? worker.child.pid! : -worker.child.pid!, "SIGTERM");
    const exit = await worker.exited;
    const took = Date.now() - signalled;

    expectCleanStop(worker, exit);
    // It waited for the receiver's answer (not cut at ~0.1 s), and well within the platform's 30 s.
    expect(request!.answered).toBe(true);
    expect(took).toBeLessThan(30_000);
    const deliveryId = sinkDeliveryId(id as HookId, "out");
    const row = parseRow(deliveryId, await d.redis.hgetall(new Keys(d.prefix).delivery(deliveryId)));
    expect(row).toMatchObject({ state: "delivered", attempts: 1 });
    expect(d.rx.requests).toHaveLength(1);
  }, 60_000);
}

it("web: one SIGTERM to the pid while ingests are in flight answers each 202 or 503 and exits 0", async () => {
  const d = await deployment(0);
  const web = d.start("web");
  await roleUp(web);

  const accepted: string[] = [];
  const refused: number[] = [];
  let stopped = false;
  const sender = async (n: number): Promise<void> => {
    for (let i = 0; !stopped; i++) {
      try {
        const res = await post(d.port, JSON.stringify({ n, i }));
        if (res.status === 202) accepted.push(((await res.json()) as { id: string }).id);
        else refused.push(res.status);
      } catch {
        return; // the listener closed: this sender is done
      }
    }
  };
  const senders = Array.from({ length: 8 }, (_, n) => sender(n));
  await eventually(() => accepted.length >= 50, 20_000, "ingests to flow");

  process.kill(web.child.pid!, "SIGTERM");
  const exit = await web.exited;
  stopped = true;
  await Promise.all(senders);

  expectCleanStop(web, exit);
  expect(new Set(refused)).toEqual(new Set(refused.length > 0 ? [503] : []));
  const keys = new Keys(d.prefix);
  const stored = await Promise.all(accepted.map((id) => d.redis.exists(keys.hook(id as HookId))));
  expect(stored.filter((n) => n !== 1)).toEqual([]);
}, 60_000);

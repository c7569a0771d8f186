// The fault-injection suite's short mode on a Redis Cluster: the same processes, traffic and faults as
// chaos-short.test.ts, but the gateway stands on a private 6-node cluster (3 masters, a replica each)
// with `durability.wait_replicas: 1`, and its Redis fault is a master failover: a master SIGKILLed, its
// replica promoted, the killed node back as that replica. Hooks refused 503 meanwhile are retried by
// the sender and count as accepted only once answered 2xx; none of those may be lost.
// `npm run test:chaos -- --cluster` is the long mode.
import { afterAll, expect, it, onTestFailed } from "vitest";
import { type ChaosResult, runChaos } from "../support/chaos/scenario.ts";
import { expectChaosPassed } from "../support/chaos/expect-passed.ts";
import { summarize } from "../support/chaos/summary.ts";

let result: ChaosResult | undefined;
// CHAOS_KEEP_LOGS=1 keeps the processes' logs of a passing run too.
let keepLogs = process.env.CHAOS_KEEP_LOGS === "1";
afterAll(() => {
  if (!result) return;
  if (keepLogs) console.log(`processes' logs kept in ${result.keepLogs()}`);
  else result.cleanup();
});

it("loses nothing acknowledged while a master fails over, workers die, the broker connection and the receiver fail", async () => {
  onTestFailed(() => {
    keepLogs = true;
  });
  const lines: string[] = [];
  // Each line with the seconds since the start: where the test's minute goes.
  const t0 = Date.now();
  const at = (): string => `[${((Date.now() - t0) / 1000).toFixed(1)} s]`;
  result = await runChaos({
    mode: "short",
    redis: "cluster",
    durationMs: 24_000,
    inboundPerS: 15,
    outboundPerS: 8,
    drainDeadlineMs: 45_000,
    log: (line) => lines.push(`${at()} ${line}`),
  });
  lines.push(`${at()} torn down`);
  const report = `${lines.join("\n")}\n${summarize(result)}`;
  // The figures are the point of the suite: shown on success too.
  console.log(report);

  expect(result.redisKind).toBe("cluster");
  expectChaosPassed(
    result,
    ["RabbitMQ connection kill", "Redis master failover", "receiver flap", "worker SIGKILL"],
    report,
  );
}, 300_000);

// The fault-injection suite's short mode, part of `npm test`: real web and worker processes from the
// Procfile, a private AOF Redis, RabbitMQ and a recording receiver; one of each fault (a worker
// SIGKILLed, Redis SIGKILLed and restarted on its AOF, the AMQP sink's connections closed by the broker,
// the receiver flapping) while signed hooks and outbound events flow. Nothing accepted may be lost.
// `npm run test:chaos` is the long mode.
import { afterAll, it, onTestFailed } from "vitest";
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

it("loses nothing accepted while workers, Redis, the broker connection and the receiver fail", async () => {
  onTestFailed(() => {
    keepLogs = true;
  });
  const lines: string[] = [];
  result = await runChaos({
    mode: "short",
    durationMs: 24_000,
    inboundPerS: 15,
    outboundPerS: 8,
    drainDeadlineMs: 45_000,
    log: (line) => lines.push(line),
  });
  const report = `${lines.join("\n")}\n${summarize(result)}`;
  // The figures are the point of the suite: shown on success too.
  console.log(report);

  expectChaosPassed(
    result,
    ["RabbitMQ connection kill", "Redis crash", "receiver flap", "worker SIGKILL"],
    report,
  );
}, 300_000);

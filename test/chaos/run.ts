// `npm run test:chaos`: the fault-injection suite's long mode. Every fault fires again and again for
// --duration while signed hooks and outbound events flow; then the run drains and prints its table.
// Exits 1 if anything accepted was lost, a delivery did not end by the drain deadline, or a fault
// could not be injected. --cluster runs it on a 6-node Redis Cluster (wait_replicas 1) whose masters
// fail over, instead of one AOF redis-server that crashes.
//
//   npm run test:chaos -- --duration 180 --inbound 20 --outbound 10 --drain 120 [--cluster] [--keep-logs]
import { cpus } from "node:os";
import { parseArgs } from "node:util";
import { runChaos } from "../support/chaos/scenario.ts";
import { summarize } from "../support/chaos/summary.ts";

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "180" },
    inbound: { type: "string", default: "20" },
    outbound: { type: "string", default: "10" },
    drain: { type: "string", default: "120" },
    cluster: { type: "boolean", default: false },
    "keep-logs": { type: "boolean", default: false },
  },
});

function seconds(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number, got "${value}"`);
  return n;
}

const started = Date.now();
const result = await runChaos({
  mode: "long",
  redis: values.cluster ? "cluster" : "single",
  durationMs: seconds("duration", values.duration) * 1000,
  inboundPerS: seconds("inbound", values.inbound),
  outboundPerS: seconds("outbound", values.outbound),
  drainDeadlineMs: seconds("drain", values.drain) * 1000,
  log: (line) => process.stdout.write(`${line}\n`),
});
process.stdout.write(`\n${summarize(result)}\n`);
process.stdout.write(`total ${((Date.now() - started) / 1000).toFixed(0)} s on ${cpus().length} cores\n`);

const failed =
  result.rows.some((r) => r.lost > 0) ||
  !result.drained.drained ||
  result.badSignatures > 0 ||
  result.injections.some((i) => i.error !== undefined);
if (values["keep-logs"] || failed) process.stdout.write(`processes' logs kept in ${result.dir}\n`);
else result.cleanup();
process.exit(failed ? 1 : 0);

// A chaos run as a person reads it: the table, then what explains its figures (faults fired, sends the
// gateway refused, dead-letter reasons, anything lost with the ledger's view of it, processes that
// died on their own). Printed by `npm run test:chaos` and by the short test when it fails.
import { loggedErrors } from "./log-errors.ts";
import { formatWindows, windowsOf } from "./outages.ts";
import { deadReasons, describeViews, faultSummary, formatSenders, formatTable } from "./report.ts";
import type { ChaosResult } from "./scenario.ts";

function refusals(result: ChaosResult): string[] {
  return [...result.senders].map(([name, s]) => {
    const reasons = [...s.refusals].map(([reason, n]) => `${reason} ×${n}`).join(", ") || "none";
    return `  ${name}: ${s.skipped} ticks skipped; refused tries by answer: ${reasons}`;
  });
}

export function summarize(result: ChaosResult): string {
  const out: string[] = [formatTable(result.rows), "", formatSenders(result.senders), ""];
  out.push("faults:", ...faultSummary(result.injections));
  out.push(
    "senders (only a 2xx is accepted; a refused try is retried with the same id, as providers do):",
    ...refusals(result),
  );
  out.push("unavailable (seconds from the first fault):");
  const redis = result.redisKind === "cluster" ? "Redis Cluster" : "Redis";
  const probe = result.redisKind === "cluster" ? "one key on each master" : "one key";
  out.push(
    `  ${redis} (${result.redisSizes} once drained), to a probe writing ${probe} every 100 ms: ${formatWindows(windowsOf(result.redisFailures), result.faultsStartedAt)}`,
  );
  for (const [name, s] of result.senders)
    out.push(`  ${name} refused: ${formatWindows(windowsOf(s.refusedAt), result.faultsStartedAt)}`);
  for (const e of result.expectations) {
    const dups = e.arrivals.duplicated();
    if (dups.length === 0) continue;
    out.push(
      `duplicates, ${e.label} (first ${Math.min(5, dups.length)} of ${dups.length}; s from the first fault):`,
    );
    for (const [key, arrivals] of dups.slice(0, 5)) {
      const each = arrivals.map(
        (a) =>
          `${a.attempt ? `attempt ${a.attempt} ` : ""}at ${((a.at - result.faultsStartedAt) / 1000).toFixed(1)} s`,
      );
      out.push(`  ${key} (${arrivals[0]!.recordId}): ${each.join(", ")}`);
    }
  }
  for (const [label, dead] of result.drained.dead) {
    if (dead.size > 0) out.push(`dead-lettered, ${label}:`, ...deadReasons(dead));
  }
  for (const [label, left] of result.drained.outstanding) {
    if (left.size > 0) out.push(`LOST, ${label} (the ledger's view):`, ...describeViews(left));
  }
  const unexpected = result.exits.filter((e) => !e.expected);
  out.push(
    `processes: ${result.exits.filter((e) => e.expected && e.signal === "SIGKILL").length} killed by the harness, ` +
      `${unexpected.length} exited on their own` +
      unexpected.map((e) => ` [${e.name} code ${e.code} signal ${e.signal}]`).join(""),
  );
  const errors = loggedErrors(result.dir);
  out.push(`logged errors (level ≥ error), by kind:`, ...(errors.length > 0 ? errors : ["  none"]));
  const several = result.rows.reduce((n, r) => n + r.severalRecords, 0);
  out.push(
    `checks: ${result.badSignatures} bad signatures, ${several} items under several records, ` +
      `${result.amqp.unreadable} unreadable AMQP messages, recorder reconnects ${result.amqp.reconnects}`,
  );
  out.push(
    `drain: ${result.drained.drained ? "complete" : "DEADLINE PASSED"} in ${result.drained.tookMs} ms; ` +
      `receiver answers ${JSON.stringify(result.receiver.answers)}`,
  );
  return out.join("\n");
}

// The delivery state machine as data: the ledger's operations (each one Lua script, or one mode of
// one) and the state changes each may make, with the condition under which it may. The scripts are
// the implementation; this table is the contract they are checked against (a property test drives
// random operations through the real scripts and checks every observed step here), and what
// docs/architecture.md prints. Anything not listed is refused: the row is left exactly as it was.
import type { DeliveryState } from "./delivery.ts";

/**
 * - `claim`: a worker takes the row's lease for one attempt (new fencing token);
 * - `finish:<outcome>`: that worker records the attempt's outcome under its token;
 * - `revive`: a replay that names a dead row brings it back;
 * - `stale-claim`: recovery claims a due row to make sure its job exists (state untouched);
 * - `reconcile`: recovery, under its stale claim, dead-letters a row it cannot route.
 */
export type LedgerOperation =
  | "claim"
  | "finish:delivered"
  | "finish:retrying"
  | "finish:dead"
  | "finish:release"
  | "revive"
  | "stale-claim"
  | "reconcile";

/**
 * What must hold for the step to be taken:
 * - `unheld`: no lease is live (the row is not sending, or its lease has lapsed);
 * - `holder`: the caller's fencing token is the row's and the row is sending;
 * - `stale-claim holder`: the caller's enqueue token is the row's stale claim, and the row is unheld;
 * - `replay`: a replay names the row, and it died at or before the replay's snapshot.
 */
export type Guard = "unheld" | "holder" | "stale-claim holder" | "replay";

export interface Transition {
  readonly from: DeliveryState;
  readonly op: LedgerOperation;
  readonly to: DeliveryState;
  readonly guard: Guard;
}

const LIVE_UNHELD = ["pending", "retrying", "sending"] as const;

export const DELIVERY_TRANSITIONS: readonly Transition[] = [
  { from: "pending", op: "claim", to: "sending", guard: "unheld" },
  { from: "retrying", op: "claim", to: "sending", guard: "unheld" },
  { from: "sending", op: "claim", to: "sending", guard: "unheld" },
  { from: "sending", op: "finish:delivered", to: "delivered", guard: "holder" },
  { from: "sending", op: "finish:retrying", to: "retrying", guard: "holder" },
  { from: "sending", op: "finish:dead", to: "dead", guard: "holder" },
  // Handed back unattempted: its attempt is not counted, so it is pending again if it had none before.
  { from: "sending", op: "finish:release", to: "pending", guard: "holder" },
  { from: "sending", op: "finish:release", to: "retrying", guard: "holder" },
  { from: "dead", op: "revive", to: "pending", guard: "replay" },
  ...LIVE_UNHELD.map((s) => ({ from: s, op: "stale-claim" as const, to: s, guard: "unheld" as const })),
  ...LIVE_UNHELD.map((s) => ({
    from: s,
    op: "reconcile" as const,
    to: "dead" as const,
    guard: "stale-claim holder" as const,
  })),
];

/** The transitions `op` may make from `from` (none: the operation is refused there). */
export function transitionsOf(from: DeliveryState, op: LedgerOperation): readonly Transition[] {
  return DELIVERY_TRANSITIONS.filter((t) => t.from === from && t.op === op);
}

/** Whether `op` may take a row from `from` to `to`. */
export function allows(from: DeliveryState, op: LedgerOperation, to: DeliveryState): boolean {
  return transitionsOf(from, op).some((t) => t.to === to);
}

/** The table as Markdown, one row per transition (docs/architecture.md carries this text). */
export function transitionTableMarkdown(): string {
  const lines = ["| from | operation | to | when |", "| --- | --- | --- | --- |"];
  for (const t of DELIVERY_TRANSITIONS) lines.push(`| ${t.from} | ${t.op} | ${t.to} | ${t.guard} |`);
  return lines.join("\n");
}

// What the ledger's writers say: an attempt's outcome, who writes it (a worker's fence, recovery's stale
// claim, or nobody's), what recovery's stale claim answers, and the ledger's retention settings. Apart
// from DeliveryStore so the outcome types, which the delivery code builds, read on their own.
import type { Config } from "../config/schema.ts";
import type { DeliveryState, Target } from "../domain/delivery.ts";
import type { Attempt } from "../domain/attempt.ts";
import type { ErrorClass } from "../domain/error-class.ts";

/** The attempt an outcome records in the row's history (none when nothing was sent). */
interface Attempted {
  readonly attempt?: Attempt;
}

/** The outcome of an attempt, as the ledger records it. */
export type Finish =
  | ({ readonly outcome: "delivered"; readonly statusCode?: number } & Attempted)
  | ({
      readonly outcome: "retrying";
      readonly nextAttemptAt: number;
      readonly reason: string;
      readonly errorClass: ErrorClass;
      readonly statusCode?: number;
    } & Attempted)
  | ({
      readonly outcome: "dead";
      readonly reason: string;
      readonly errorClass: ErrorClass;
      readonly statusCode?: number;
      /** false: the claim that decided this sent nothing, so it is not counted as an attempt. */
      readonly attempted?: boolean;
    } & Attempted)
  | { readonly outcome: "release" };

/**
 * Who writes: a worker's claim (its fencing token), recovery's stale claim (its enqueue token, see
 * claimStale), or `unfenced` (seeding, tools). The last two land only on a row no attempt holds.
 */
export type Writer = { readonly fence: number } | { readonly staleClaim: string } | "unfenced";

/** How the finish script reads a writer. */
export function fenceArg(writer: Writer): string | number {
  if (writer === "unfenced") return "*";
  return "fence" in writer ? writer.fence : `ek:${writer.staleClaim}`;
}

export type ReviveResult = "moved" | "already" | "missing" | "newer" | "gone" | DeliveryState;

export type StaleClaim =
  | {
      readonly kind: "claimed";
      readonly state: DeliveryState;
      readonly target: Target | undefined;
      readonly parentId: string;
      readonly enqueueFailed: boolean;
    }
  | { readonly kind: "not_due" | "leased" | "final" | "missing" };

export interface LedgerOptions {
  /** How long a finished row (and its parent) is kept after its last change. */
  readonly retentionS: number;
  /** How long a row may stay pending or overdue before recovery looks at it. */
  readonly staleAfterMs: number;
  /**
   * Failed attempts of one outbound delivery that make `switchyard.delivery.failing`; 0 or absent: the
   * ledger records no operational fact (operational.enabled off, or a store built outside a gateway).
   */
  readonly failingAfter?: number;
}

/** The ledger's options as the config sets them. */
export function ledgerOptions(
  config: Pick<Config, "retention_s" | "recovery" | "operational">,
): LedgerOptions {
  return {
    retentionS: config.retention_s,
    staleAfterMs: config.recovery.stale_after_ms,
    failingAfter: config.operational.enabled ? config.operational.failing_after : 0,
  };
}

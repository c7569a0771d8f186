// How the attempt runner writes an attempt's outcome to the ledger. A write the fence refuses means
// another worker owns the row now (this one's lease lapsed): counted and logged, never an error. A
// death is counted before it is written, so whoever sees the dead row (an alert, a test) sees the
// metrics too.
import type { Attempt } from "../domain/attempt.ts";
import { type AttemptEnd, dead } from "../domain/attempt-end.ts";
import { type DeliveryResult, type SinkFailure, errorClassOf } from "../domain/error-class.ts";
import type { Logger } from "../observability/logger.ts";
import type { DeliveryStore, Finish } from "../store/delivery-store.ts";
import type { AttemptMetrics, DeliveryTarget, PreparedAttempt } from "./delivery-target.ts";

/** The row an outcome is written to. */
export type LedgerRow = Parameters<DeliveryStore["finish"]>[0];

/** What was sent, for a death that followed a send (its result and the attempt the history keeps). */
export interface SentAttempt {
  readonly result: DeliveryResult;
  readonly attempt: Attempt;
}

export interface OutcomeWriter<P extends PreparedAttempt> {
  /** Write `finish`; false when refused (another worker holds the row now). */
  record(row: LedgerRow, writer: { fence: number }, finish: Finish, at?: number): Promise<boolean>;
  /**
   * Dead-letter the delivery for `failure` (`why`: what decided it). `sent`: the attempt that failed,
   * absent when the death was decided before anything was sent (out of attempts).
   */
  deadLetter(
    p: P,
    row: LedgerRow,
    writer: { fence: number },
    failure: SinkFailure,
    log: Record<string, unknown>,
    why: string,
    sent?: SentAttempt,
  ): Promise<AttemptEnd>;
}

export interface OutcomeWriterDeps<P extends PreparedAttempt> {
  readonly target: DeliveryTarget<P>;
  readonly ledger: DeliveryStore;
  readonly metrics: AttemptMetrics;
  readonly logger: Logger;
  readonly now: () => number;
}

export function outcomeWriter<P extends PreparedAttempt>(deps: OutcomeWriterDeps<P>): OutcomeWriter<P> {
  const { target, ledger, metrics, logger, now } = deps;

  const record: OutcomeWriter<P>["record"] = async (row, writer, finish, at = now()) => {
    const written = await ledger.finish(row, writer, finish, at);
    if (!written) {
      metrics.fenced();
      logger.warn(
        { delivery_id: row.id, outcome: finish.outcome },
        "outcome refused: the lease was lost to another worker",
      );
    }
    return written;
  };

  const deadLetter: OutcomeWriter<P>["deadLetter"] = async (p, row, writer, failure, log, why, sent) => {
    const errorClass = errorClassOf(failure);
    metrics.deadLettered(p, errorClass, failure.kind === "permanent" && failure.config);
    const finish: Finish = {
      outcome: "dead",
      reason: failure.reason,
      errorClass,
      statusCode: failure.statusCode,
      attempted: sent !== undefined,
      ...(sent ? { attempt: sent.attempt } : {}),
    };
    if (await record(row, writer, finish))
      logger.error({ ...log, result: errorClass, reason: failure.reason, why }, "dead-lettered");
    if (sent) await target.settled?.(p, sent.result, true);
    return dead(`${errorClass}: ${failure.reason}`);
  };

  return { record, deadLetter };
}

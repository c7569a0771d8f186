// The inbound use case: verify → dedup → persist the record and its delivery rows, and enqueue, in one
// round trip → ack. A 2xx is only ever answered after Redis has acknowledged both the rows and every
// sink job.
import type { Config, SourceConfig } from "../config/schema.ts";
import type { DeliveryRow } from "../domain/delivery.ts";
import { type HookRecord, sinkDeliveryId } from "../domain/hook.ts";
import { STORE_RETRY_AFTER_S } from "../domain/errors.ts";
import { type DeliveryId, type HookId, newId } from "../domain/ids.ts";
import type { Logger } from "../observability/logger.ts";
import type { Metrics } from "../observability/metrics.ts";
import { timeline } from "../observability/timeline.ts";
import type { PersistOutcome } from "../store/hook-store.ts";
import type { QuarantineOutcome, QuarantinedHook } from "../store/quarantine-store.ts";
import type { DepthGate } from "./depth-gate.ts";
import { newHookRecord } from "./hook-identity.ts";
import { IngestError } from "./ingest-error.ts";
import { verifySchemeName, verifySignature } from "./verify/index.ts";

export interface IngestRequest {
  readonly source: string;
  /** Tenant segment of `/webhooks/:tenant/:source`; wins over the source's configured tenant. */
  readonly tenant: string | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  /** W3C traceparent of the request's span (tracing on only), kept with the hook for its deliveries. */
  readonly traceparent?: string | undefined;
}

export type IngestResult = { readonly status: "accepted" | "duplicate"; readonly id: HookId };

/** The hook store, as ingest uses it. */
export interface HookWriter {
  persist(
    hook: HookRecord,
    /** `dedupIdentity`: the key a second copy is refused under (the hook's bucket comes from it). */
    opts: { dedupTtlS: number; staleAfterMs: number; dedupIdentity: string },
    /** Called once the write is on the connection, ahead of any command sent after it. */
    onSent?: () => void,
  ): Promise<PersistOutcome>;
  /** Mark a row whose job could not be added, so recovery adds it at once. */
  markEnqueueFailed(id: DeliveryId, error: string): Promise<boolean>;
  load(
    id: HookId,
  ): Promise<
    { readonly deliveries: Readonly<Record<string, Pick<DeliveryRow, "state"> | undefined>> } | undefined
  >;
}

/** The delivery queues, as ingest uses them: add a job per row (idempotent), or remove waiting ones. */
export interface JobWriter {
  enqueue(rows: readonly JobRow[]): Promise<void>;
  /** Remove the rows' jobs unless a worker holds them. */
  discard(rows: readonly JobRow[]): Promise<void>;
}

/** A delivery job as ingest adds it. */
export type JobRow = Pick<DeliveryRow, "id" | "parentId" | "target">;

/**
 * Waits until `replicas` replicas hold a hook's writes: its record (with its rows and dedup key) and
 * each of its jobs (Redis WAIT, on every master that took one of them). Resolves the fewest reached.
 */
export interface ReplicaWaiter {
  wait(hook: HookId, jobs: readonly JobRow[], replicas: number, timeoutMs: number): Promise<number>;
}

/** The quarantine store, as ingest uses it. */
export interface QuarantineWriter {
  add(hook: Omit<QuarantinedHook, "size"> & { readonly body: Buffer }): Promise<QuarantineOutcome>;
}

export interface IngestDeps {
  readonly config: Config;
  readonly quarantine: QuarantineWriter;
  readonly hooks: HookWriter;
  readonly jobs: JobWriter;
  readonly replicas: ReplicaWaiter;
  readonly depth: Pick<DepthGate, "isOver">;
  readonly metrics: Metrics;
  readonly logger: Logger;
  readonly now?: () => number;
}

/** The job of each of a hook's sink deliveries. */
function jobRows(id: HookId, sinks: readonly string[]): JobRow[] {
  return sinks.map((sink) => ({
    id: sinkDeliveryId(id, sink),
    parentId: id,
    target: { kind: "sink" as const, name: sink },
  }));
}

/** How long a provider should wait after a 503 from us when it is the load, not the store. */
const OVERLOAD_RETRY_AFTER_S = 30;

export class IngestService {
  private draining = false;
  private readonly now: () => number;

  constructor(private readonly deps: IngestDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** Refuse new hooks (503) from now on: the process is shutting down. */
  drain(): void {
    this.draining = true;
  }

  async ingest(req: IngestRequest): Promise<IngestResult> {
    const { config, metrics } = this.deps;
    const source = config.sources[req.source];
    if (!source) throw new IngestError("unknown_source", `no source named "${req.source}"`);
    if (this.draining) throw new IngestError("shutting_down", "shutting down", STORE_RETRY_AFTER_S);

    const receivedAt = this.now();
    const received = timeline.now();
    const tenant = req.tenant ?? source.tenant;
    const request = { headers: req.headers, body: req.body };
    const verdict = verifySignature(source.verify, request, receivedAt, tenant);
    if (!verdict.ok) {
      metrics.verifyFailures.inc({ source: req.source, scheme: verifySchemeName(source.verify) });
      await this.noteUnverified(req, source, receivedAt, verdict.reason);
      throw new IngestError("verification_failed", "signature verification failed");
    }
    if (this.deps.depth.isOver(req.source)) {
      throw new IngestError("overloaded", "sink queues are over their depth limit", OVERLOAD_RETRY_AFTER_S);
    }

    const verified = timeline.now();
    const { hook, dedupIdentity } = newHookRecord({
      sourceName: req.source,
      source,
      tenant,
      headers: req.headers,
      body: req.body,
      receivedAt,
      verifiedId: verdict.messageId,
      traceparent: req.traceparent,
    });
    const jobs = jobRows(hook.id, source.sinks);
    const { outcome, persisted } = await this.persistWithJobs(hook, jobs, {
      dedupTtlS: source.dedup_ttl_s,
      staleAfterMs: config.recovery.stale_after_ms,
      dedupIdentity,
    });
    if (outcome.kind === "duplicate") {
      // The first copy may have been persisted by a request that died before enqueueing: finish its jobs.
      // A 200 promises what a 202 does: the first copy's writes on as many replicas as configured.
      const firstJobs = await this.finishEnqueue(outcome.firstId);
      if (firstJobs) await this.waitForReplicas(outcome.firstId, firstJobs);
      return { status: "duplicate", id: outcome.firstId };
    }
    if (timeline.on)
      timeline.markAll(hook.id, [
        ["received", received],
        ["verified", verified],
        ["persisted", persisted],
        ["job_added"],
      ]);
    await this.waitForReplicas(hook.id, jobs);
    return { status: "accepted", id: hook.id };
  }

  /**
   * Persist a hook and add its jobs in one round trip. On a single Redis the persist script writes the
   * jobs itself (`jobsAdded`): record, rows and jobs appear together, and a duplicate writes none. On
   * a cluster (or a BullMQ whose job layout the script does not know) the adds are handed to the
   * connection right behind the persist; the row and the job live on two nodes there, so a worker that
   * meets a job before its row looks again shortly, and the row's recovery watch entry is the
   * backstop. Resolves once both are acknowledged. A duplicate's jobs then name rows that were never
   * written: they are removed again (a worker that took one first drops it).
   */
  private async persistWithJobs(
    hook: HookRecord,
    jobs: readonly JobRow[],
    opts: Parameters<HookWriter["persist"]>[1],
  ): Promise<{ outcome: PersistOutcome; persisted: number }> {
    let adding: Promise<void> | undefined;
    const outcome = await this.store(() =>
      this.deps.hooks.persist(hook, opts, () => {
        adding = this.deps.jobs.enqueue(jobs);
        // Awaited below; a rejection that lands before then is not an unhandled one.
        adding.catch(() => undefined);
      }),
    );
    const persisted = timeline.now();
    if (outcome.kind === "duplicate") {
      await adding?.catch(() => undefined);
      if (adding) await this.discardJobs(jobs);
      return { outcome, persisted };
    }
    // A persist that failed may still have been written (its reply lost): its jobs then stay, so they
    // are never discarded on an error. The provider's retry meets the record as a duplicate.
    if (!outcome.jobsAdded)
      await this.store(() =>
        (adding ?? this.deps.jobs.enqueue(jobs)).catch((err: unknown) => this.markUnqueued(jobs, err)),
      );
    return { outcome, persisted };
  }

  /**
   * The rows are written but their jobs may not be: each is marked (as fanout marks one), so recovery
   * adds its job on its next tick rather than at the stale horizon. Rethrows `err` (the answer is 503).
   */
  private async markUnqueued(jobs: readonly JobRow[], err: unknown): Promise<never> {
    const error = err instanceof Error ? err.message : String(err);
    await Promise.all(jobs.map((job) => this.deps.hooks.markEnqueueFailed(job.id, error).catch(() => false)));
    throw err;
  }

  private async discardJobs(jobs: readonly JobRow[]): Promise<void> {
    try {
      await this.deps.jobs.discard(jobs);
    } catch (err) {
      this.deps.logger.debug({ err: (err as Error).message }, "could not remove a duplicate's jobs");
    }
  }

  /**
   * Log a hook that failed verification and, for a quarantining source, keep it for an operator in the
   * capped quarantine store: never dedup-parsed (its bytes are untrusted), never delivered; one larger
   * than the whole byte cap is refused (counted, and said in the log line).
   */
  private async noteUnverified(
    req: IngestRequest,
    source: SourceConfig,
    receivedAt: number,
    reason: string,
  ): Promise<void> {
    const id = newId("hk", receivedAt);
    const outcome =
      source.on_verify_failure === "quarantine"
        ? await this.store(() =>
            this.deps.quarantine.add({
              id,
              source: req.source,
              tenant: req.tenant ?? source.tenant,
              received_at: receivedAt,
              reason,
              headers: req.headers,
              body: req.body,
            }),
          )
        : undefined;
    const refused = outcome === "too_large";
    if (refused) this.deps.metrics.quarantineRefused.inc({ source: req.source, reason: "too_large" });
    const quarantine = refused ? { quarantine_refused: "larger than quarantine.max_bytes" } : {};
    const quarantineId = outcome === "kept" ? id : undefined;
    this.deps.logger.info(
      { source: req.source, reason, quarantine_id: quarantineId, ...quarantine },
      "verification failed",
    );
  }

  /**
   * The first copy of a hook was persisted; its request may have died before adding its jobs (or is
   * still adding them): add the jobs of rows nobody has picked up. Adding a job that exists is a no-op.
   * Returns the jobs of every row the record still has (undefined when the record is gone).
   */
  private async finishEnqueue(id: HookId): Promise<JobRow[] | undefined> {
    const stored = await this.store(() => this.deps.hooks.load(id));
    if (!stored) return undefined;
    const pending = Object.entries(stored.deliveries)
      .filter(([, row]) => row?.state === "pending")
      .map(([sink]) => sink);
    if (pending.length > 0) await this.enqueue(id, pending);
    return jobRows(
      id,
      Object.entries(stored.deliveries)
        .filter(([, row]) => row !== undefined)
        .map(([sink]) => sink),
    );
  }

  private async enqueue(id: HookId, sinks: readonly string[]): Promise<JobRow[]> {
    const rows = jobRows(id, sinks);
    await this.store(() => this.deps.jobs.enqueue(rows));
    return rows;
  }

  private async waitForReplicas(hook: HookId, jobs: readonly JobRow[]): Promise<void> {
    const { wait_replicas, wait_timeout_ms } = this.deps.config.durability;
    if (wait_replicas === 0) return;
    const acked = await this.store(() => this.deps.replicas.wait(hook, jobs, wait_replicas, wait_timeout_ms));
    if (acked < wait_replicas) {
      throw new IngestError(
        "store_unavailable",
        `only ${acked} of ${wait_replicas} replicas acknowledged the write`,
        STORE_RETRY_AFTER_S,
      );
    }
  }

  /** Run a Redis write; any failure of the store becomes a 503 the provider will retry. */
  private async store<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      this.deps.logger.warn({ err: (err as Error).message }, "store write failed");
      throw new IngestError("store_unavailable", "the hook store is unavailable", STORE_RETRY_AFTER_S);
    }
  }
}

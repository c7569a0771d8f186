// The inbound use case: verify → dedup → persist → enqueue → ack. A 2xx is only ever answered after
// Redis has acknowledged both the record and every sink job.
import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import type { Config, SourceConfig } from "../config/schema.ts";
import { type HookRecord, idempotencyKey } from "../domain/hook.ts";
import { type HookId, newId } from "../domain/ids.ts";
import type { Logger } from "../observability/logger.ts";
import type { Metrics } from "../observability/metrics.ts";
import type { SinkQueues } from "../queue/sink-queues.ts";
import type { HookStore } from "../store/hook-store.ts";
import { computeDedupKey } from "./dedup-key.ts";
import type { DepthGate } from "./depth-gate.ts";
import { IngestError } from "./ingest-error.ts";
import { verifySchemeName, verifySignature } from "./verify/index.ts";

export interface IngestRequest {
  readonly source: string;
  /** Tenant segment of `/webhooks/:tenant/:source`; wins over the source's configured tenant. */
  readonly tenant: string | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

export type IngestResult = { readonly status: "accepted" | "duplicate"; readonly id: HookId };

export interface IngestDeps {
  readonly config: Config;
  readonly redis: Redis;
  readonly hooks: HookStore;
  readonly queues: SinkQueues;
  readonly depth: DepthGate;
  readonly metrics: Metrics;
  readonly logger: Logger;
  readonly now?: () => number;
}

/** How long a provider should wait after a 503 from us. */
const STORE_RETRY_AFTER_S = 5;
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
    const verdict = verifySignature(source.verify, { headers: req.headers, body: req.body }, receivedAt);
    if (!verdict.ok) {
      metrics.verifyFailures.inc({ source: req.source, scheme: verifySchemeName(source.verify) });
      this.deps.logger.info({ source: req.source, reason: verdict.reason }, "verification failed");
      if (source.on_verify_failure === "quarantine") await this.quarantine(req, source, receivedAt);
      throw new IngestError("verification_failed", "signature verification failed");
    }
    if (this.deps.depth.isOver(req.source)) {
      throw new IngestError("overloaded", "sink queues are over their depth limit", OVERLOAD_RETRY_AFTER_S);
    }

    const hook = this.buildRecord(req, source, receivedAt, source.sinks);
    const maxAttempts = source.retry?.max_attempts ?? config.dispatch.retry.max_attempts;
    const outcome = await this.store(() =>
      this.deps.hooks.persist(hook, { dedupTtlS: source.dedup_ttl_s, retentionS: config.retention_s }),
    );
    if (outcome.kind === "duplicate") {
      // The first copy may have been persisted by a request that died before enqueueing: finish its job.
      if (outcome.enqueueState === "persisted") await this.finishEnqueue(outcome.firstId, maxAttempts);
      return { status: "duplicate", id: outcome.firstId };
    }
    await this.enqueue(hook.id, source.sinks, maxAttempts);
    await this.waitForReplicas();
    this.deps.hooks.markEnqueued(hook.id).catch((err: Error) => {
      // Harmless: recovery finds the record, sees its jobs exist and marks it.
      this.deps.logger.warn({ hook_id: hook.id, err: err.message }, "could not mark hook enqueued");
    });
    return { status: "accepted", id: hook.id };
  }

  private buildRecord(
    req: IngestRequest,
    source: SourceConfig,
    receivedAt: number,
    sinks: readonly string[],
  ): HookRecord {
    const tenant = req.tenant ?? source.tenant;
    const sha256 = createHash("sha256").update(req.body).digest("hex");
    const dedupKey = computeDedupKey(source.dedup, req.headers, req.body, sha256);
    return {
      id: newId("hk", receivedAt),
      source: req.source,
      tenant,
      receivedAt,
      contentType: req.headers["content-type"],
      headers: req.headers,
      body: req.body,
      sha256,
      dedupKey,
      idempotencyKey: idempotencyKey(tenant, req.source, dedupKey),
      sinks,
    };
  }

  /** Keep a hook that failed verification, with no sinks, for an operator to inspect. */
  private async quarantine(req: IngestRequest, source: SourceConfig, receivedAt: number): Promise<void> {
    const hook = { ...this.buildRecord(req, source, receivedAt, []), dedupKey: `quarantine:${newId("hk")}` };
    await this.store(() =>
      this.deps.hooks.persist(hook, { dedupTtlS: 1, retentionS: this.deps.config.retention_s }),
    );
    await this.deps.hooks.markEnqueued(hook.id).catch(() => undefined);
  }

  /**
   * The first copy of a hook was persisted but its jobs are not known to exist (its request died, or is
   * still running): add the jobs of sinks that have not been delivered, then mark it enqueued.
   */
  private async finishEnqueue(id: HookId, maxAttempts: number): Promise<void> {
    const stored = await this.store(() => this.deps.hooks.load(id));
    if (!stored) return;
    const pending = stored.hook.sinks.filter(
      (sink) => (stored.sinkStates[sink]?.state ?? "pending") === "pending",
    );
    await this.enqueue(id, pending, maxAttempts);
    await this.deps.hooks.markEnqueued(id).catch(() => undefined);
  }

  private async enqueue(id: HookId, sinks: readonly string[], maxAttempts: number): Promise<void> {
    await this.store(() => this.deps.queues.enqueue(id, sinks, maxAttempts));
  }

  private async waitForReplicas(): Promise<void> {
    const { wait_replicas, wait_timeout_ms } = this.deps.config.durability;
    if (wait_replicas === 0) return;
    const acked = await this.store(() => this.deps.redis.wait(wait_replicas, wait_timeout_ms));
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

// The drainer: publishes the operational facts waiting in outboxes (src/store/ops-outbox.ts) and removes
// them. A process that wrote a fact kicks it, and it drains the dirty outboxes a short while later
// (`operational.flush_ms`, so a burst is read in pages, not one fact at a time); the recovery tick sweeps
// every outbox, so a fact whose writer died before publishing is published later. Each fact is decided
// once (send, or skip when its target is over its per-minute budget), published if sent, then removed:
// a crash between the publish and the removal publishes it again, which the ledger answers `duplicate`
// (one event id per fact), so no endpoint receives a fact twice.
import type { OperationalConfig } from "../config/operational-schema.ts";
import { type OutboxEntry } from "../domain/operational-events.ts";
import { budgetMinute, parseOutboxEntry } from "../domain/outbox-entry.ts";
import { PublishRefused } from "../fanout/publish-event.ts";
import type { Logger } from "../observability/logger.ts";
import type { Metrics } from "../observability/metrics.ts";
import type { OpsOutbox, StoredFact } from "../store/ops-outbox.ts";
import type { EndpointTagWalk } from "./outbox-sweep.ts";

/** Facts published at once (each is a few round trips per scope). */
const PUBLISH_CONCURRENCY = 16;

export interface DrainReport {
  published: number;
  suppressed: number;
  failed: number;
}

export interface DrainerDeps {
  readonly outbox: OpsOutbox;
  /** Publish one fact in its scopes (publishFact); throws when it could not. */
  readonly publish: (eventId: string, entry: OutboxEntry) => Promise<unknown>;
  readonly config: Pick<OperationalConfig, "enabled" | "flush_ms" | "delivery_events_per_minute">;
  readonly metrics: Metrics;
  readonly logger: Logger;
  /** The outboxes a sweep reads besides the dirty ones (outbox-sweep.ts). */
  readonly fixedOutboxes: readonly string[];
  /** On a cluster: the per-endpoint outboxes, a page per sweep. */
  readonly endpointTags?: EndpointTagWalk;
}

interface Readable {
  readonly fact: StoredFact;
  readonly entry: OutboxEntry;
}

export class OpsDrainer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<DrainReport> | undefined;
  private next: { run: () => Promise<DrainReport>; isSweep: boolean } | undefined;
  private closed = false;

  constructor(private readonly deps: DrainerDeps) {}

  /** A fact was written: drain the dirty outboxes after `flush_ms` (kicks meanwhile share that drain). */
  kick(): void {
    if (this.closed || !this.deps.config.enabled || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.drainDirty().catch((err: unknown) =>
        this.deps.logger.warn({ err: (err as Error).message }, "operational events: drain failed"),
      );
    }, this.deps.config.flush_ms);
  }

  /** Drain every outbox marked dirty (one pass at a time per process: see `single`). */
  drainDirty(): Promise<DrainReport> {
    return this.single(async () => this.drain(await this.deps.outbox.dirty()));
  }

  /**
   * The recovery tick's pass: the dirty outboxes, then every outbox a fact can be written to that holds
   * entries (and a page of the per-endpoint ones on a cluster), so nothing waits on a lost mark.
   */
  sweep(): Promise<DrainReport> {
    return this.single(async () => {
      const { outbox, fixedOutboxes, endpointTags } = this.deps;
      const candidates = [...fixedOutboxes, ...((await endpointTags?.next()) ?? [])];
      const sizes = await outbox.sizes(candidates);
      const held = candidates.filter((_, i) => (sizes[i] ?? 0) > 0);
      return this.drain([...new Set([...(await outbox.dirty()), ...held])]);
    }, true);
  }

  /** Stop kicking; a drain under way finishes. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  /**
   * Run one pass at a time per process. A pass asked for while another runs is run after it (a sweep
   * stands for a drain of the dirty outboxes too, so it replaces one waiting); the caller's promise
   * settles once the passes have run.
   */
  private async single(run: () => Promise<DrainReport>, isSweep = false): Promise<DrainReport> {
    // Nothing starts once closed: a last recovery tick during the stop must not send commands on
    // connections about to quit (what is left is swept by the next process).
    if (!this.deps.config.enabled || this.closed) return { published: 0, suppressed: 0, failed: 0 };
    if (this.running) {
      if (isSweep || !this.next) this.next = { run, isSweep };
      return this.running;
    }
    const loop = async (): Promise<DrainReport> => {
      const total: DrainReport = { published: 0, suppressed: 0, failed: 0 };
      let pass: (() => Promise<DrainReport>) | undefined = run;
      while (pass && !this.closed) {
        const r = await pass();
        total.published += r.published;
        total.suppressed += r.suppressed;
        total.failed += r.failed;
        pass = this.next?.run;
        this.next = undefined;
      }
      return total;
    };
    this.running = loop().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async drain(outboxes: readonly string[]): Promise<DrainReport> {
    const report: DrainReport = { published: 0, suppressed: 0, failed: 0 };
    for (const key of outboxes) {
      let cursor = "0";
      do {
        const page = await this.deps.outbox.page(key, cursor);
        cursor = page.cursor;
        await this.handle(key, page.facts, report);
      } while (cursor !== "0" && !this.closed);
      await this.deps.outbox.settle(key);
    }
    return report;
  }

  /** Decide, publish and remove one page of one outbox's facts. */
  private async handle(key: string, facts: readonly StoredFact[], report: DrainReport): Promise<void> {
    const { outbox, metrics, logger, config } = this.deps;
    const done: string[] = [];
    const readable: Readable[] = [];
    for (const fact of facts) {
      const parsed = parseOutboxEntry(fact.json);
      if (parsed.ok) readable.push({ fact, entry: parsed.entry });
      else {
        // It can never be published: removed, and said loudly.
        logger.error(
          { outbox: key, id: fact.id, err: parsed.error },
          "operational events: unreadable entry removed",
        );
        metrics.operationalEvents.inc({ type: "invalid", outcome: "failed" });
        report.failed += 1;
        done.push(fact.id);
      }
    }
    const limit = config.delivery_events_per_minute;
    const budgeted = limit > 0 ? readable.filter((r) => r.entry.budget !== undefined) : [];
    const decisions = await outbox.decide(
      budgeted.map((r) => ({
        id: r.fact.id,
        budget: r.entry.budget as string,
        minute: budgetMinute(r.entry.at),
      })),
      limit,
    );
    const skipped = new Set(budgeted.filter((_, i) => decisions[i] === "skip").map((r) => r.fact.id));
    const toSend: Readable[] = [];
    for (const r of readable) {
      if (!skipped.has(r.fact.id)) toSend.push(r);
      else {
        metrics.operationalEvents.inc({ type: r.entry.type, outcome: "suppressed" });
        report.suppressed += 1;
        done.push(r.fact.id);
      }
    }
    for (let i = 0; i < toSend.length; i += PUBLISH_CONCURRENCY) {
      await Promise.all(
        toSend.slice(i, i + PUBLISH_CONCURRENCY).map(async ({ fact, entry }) => {
          try {
            await this.deps.publish(fact.id, entry);
            metrics.operationalEvents.inc({ type: entry.type, outcome: "published" });
            report.published += 1;
            done.push(fact.id);
          } catch (err) {
            metrics.operationalEvents.inc({ type: entry.type, outcome: "failed" });
            report.failed += 1;
            // A refusal is for good (the fact can never be published as it is); anything else is retried.
            const permanent = err instanceof PublishRefused;
            if (permanent) done.push(fact.id);
            logger[permanent ? "error" : "warn"](
              { id: fact.id, type: entry.type, err: (err as Error).message },
              permanent ? "operational event refused, removed" : "operational event not published yet",
            );
          }
        }),
      );
    }
    await outbox.remove(key, done);
  }
}

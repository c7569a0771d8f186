// A fanout of several pages whose publisher died between pages would leave the endpoints of the
// unwritten pages without rows for good when the event has no id its caller knows (it cannot publish
// again). The first page marks the fanout unfinished, with the endpoints it goes to; each recovery tick
// finishes the marked fanouts no page has touched for recovery.stale_after_ms, writing every page again
// with the same idempotent script (rows that exist are duplicates, so a publisher still finishing and
// recovery never make a row twice), and the last page clears the mark.
// The endpoints it finishes with: those that matched at publish time (the mark's snapshot) and still
// match now. An endpoint deleted, disabled or unsubscribed since gets no row; one created since gets
// none either: it did not match when the event was published.
import type { Config } from "../config/schema.ts";
import type { EndpointId } from "../domain/ids.ts";
import { type EndpointMatcher, endpointProblem } from "../fanout/publish-event.ts";
import { type FanoutEvents, type JobAdder, writeFanout } from "../fanout/write-fanout.ts";
import type { Logger } from "../observability/logger.ts";
import type { EventStore } from "../store/event-store.ts";

export interface FanoutResumeDeps {
  readonly config: Config;
  readonly keys: { readonly buckets: readonly number[] };
  readonly events: FanoutEvents & Pick<EventStore, "unfinishedFanouts" | "unfinishedFanout" | "forgetFanout">;
  readonly endpoints: EndpointMatcher;
  readonly jobs: JobAdder;
  readonly logger: Logger;
  readonly now?: () => number;
}

/** Unfinished fanouts looked at per bucket per tick (the rest wait for later ticks). */
const MAX_PER_BUCKET = 10;

/** Finish every unfinished fanout that is due; how many were finished. */
export async function resumeFanouts(deps: FanoutResumeDeps): Promise<number> {
  const now = deps.now?.() ?? Date.now();
  const due = await Promise.all(
    deps.keys.buckets.map((b) => deps.events.unfinishedFanouts(b, now, MAX_PER_BUCKET)),
  );
  let finished = 0;
  for (const ref of due.flat()) {
    try {
      if (await resumeOne(deps, ref, now)) finished++;
    } catch (err) {
      deps.logger.warn({ event: ref, err: (err as Error).message }, "could not finish a fanout");
    }
  }
  return finished;
}

async function resumeOne(deps: FanoutResumeDeps, ref: string, now: number): Promise<boolean> {
  const { events, config, logger } = deps;
  const fanout = await events.unfinishedFanout(ref);
  if (!fanout) {
    // Finished meanwhile, or the event expired: nothing left to write.
    await events.forgetFanout(ref);
    return false;
  }
  const { record } = fanout;
  const snapshot = new Set<string>(fanout.endpoints);
  const matched = await deps.endpoints.match(record.tenant, record.type);
  const endpoints = matched
    .filter((e) => snapshot.has(e.id) && endpointProblem(e, now) === undefined)
    .map((e) => e.id as EndpointId);
  const written = await writeFanout(
    {
      events,
      jobs: deps.jobs,
      staleAfterMs: config.recovery.stale_after_ms,
      retentionS: config.retention_s,
      pageSize: config.outbound.fanout_page_size,
      ...(deps.now ? { now: deps.now } : {}),
    },
    record,
    endpoints,
    undefined,
    ref,
  );
  // Another event took the id after this one expired: nothing of this one is left to finish.
  if (written.kind === "conflict") return false;
  const created = written.results.filter((r) => r.status === "created").length;
  logger.info(
    { event: ref, endpoints: endpoints.length, created, dropped: snapshot.size - endpoints.length },
    "finished a fanout its publisher left unfinished",
  );
  return true;
}

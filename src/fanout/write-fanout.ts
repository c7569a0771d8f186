// Writing a fanout: the event and its rows a page of endpoints at a time (each page one atomic,
// idempotent script). Where the store writes the rows' jobs in the same script (a single Redis, or a
// cluster whose queues are aligned with buckets, with the verified BullMQ, as ingest's persist does),
// every page goes out at once: one command per page, rows and jobs together, nothing left to add.
// Otherwise (a cluster with queues by partition) each page's new rows are enqueued
// before the next page is written, and a row whose job could not be added is marked so that recovery
// adds it at once. Shared by the publish use case and by recovery, which finishes a fanout whose
// publisher died between pages: rows are unique on (endpoint, event), so a publisher and recovery
// writing the same pages never make a row twice, and only the caller that created (or took back) a row
// enqueues it.
import type { DeliveryRow } from "../domain/delivery.ts";
import type { EndpointId } from "../domain/ids.ts";
import { eventRef } from "../domain/event.ts";
import {
  type EventRecord,
  type EventStore,
  type FanoutPage,
  type RowStatus,
  endpointDeliveryId,
} from "../store/event-store.ts";

/** A delivery job to add, as the delivery queues take it. */
export type JobRef = Pick<DeliveryRow, "id" | "parentId" | "target">;

/** The delivery queues, as fanout uses them. */
export interface JobAdder {
  enqueue(rows: readonly JobRef[]): Promise<void>;
}

export type PublishStatus = "created" | "duplicate" | "enqueue_failed" | "endpoint_error";

export interface EndpointResult {
  readonly endpoint_id: string;
  readonly status: PublishStatus;
  readonly error?: string;
}

/** The event store, as fanout writes it. */
export type FanoutEvents = Pick<EventStore, "publish" | "markEnqueueFailed"> &
  Partial<Pick<EventStore, "writesJobs">>;

export interface FanoutWriteDeps {
  readonly events: FanoutEvents;
  readonly jobs: JobAdder;
  readonly staleAfterMs: number;
  /** The expiry of an event no live row holds (retention_s). */
  readonly retentionS: number;
  /** Endpoints written per script (outbound.fanout_page_size). */
  readonly pageSize: number;
  readonly now?: () => number;
}

export type FanoutWrite =
  | { readonly kind: "conflict" }
  | { readonly kind: "written"; readonly results: EndpointResult[]; readonly confirmed: JobRef[] };

/** Which page `index` of `count` is, as the publish script marks the fanout. */
function pageOf(index: number, count: number, endpoints: readonly EndpointId[]): FanoutPage {
  if (index === count - 1) return { kind: "last" };
  return index === 0 ? { kind: "first", endpoints } : { kind: "more" };
}

/**
 * Write `record`'s fanout to `endpoints`, page by page. `onFirstPage` runs once the first page is
 * written (the event is accepted). Only the first page can meet another event (a conflict); later
 * pages find this fanout's own record. `ref` is the key the event is stored under (by default its
 * tenant and id; a 0.1.0 event keeps its bare id).
 */
export async function writeFanout(
  deps: FanoutWriteDeps,
  record: EventRecord,
  endpoints: readonly EndpointId[],
  onFirstPage?: () => void,
  ref: string = eventRef(record.tenant, record.id),
): Promise<FanoutWrite> {
  // At least one page: an event nobody takes is still recorded (and expires after retention_s).
  const count = Math.max(1, Math.ceil(endpoints.length / deps.pageSize));
  const pages = Array.from({ length: count }, (_, index) =>
    endpoints.slice(index * deps.pageSize, (index + 1) * deps.pageSize),
  );
  const fanout: Fanout = { deps, record, endpoints, pages, ref, onFirstPage };
  const written = deps.events.writesJobs ? await writeAtOnce(fanout) : await writePageByPage(fanout);
  if (written === "conflict") return { kind: "conflict" };
  const results: EndpointResult[] = [];
  const confirmed: JobRef[] = [];
  for (const { page, statuses, failed } of written)
    page.forEach((endpointId, i) => {
      const job = jobRef(ref, endpointId);
      const error = failed.get(job.id);
      if (error !== undefined) {
        results.push({ endpoint_id: endpointId, status: "enqueue_failed", error });
        return;
      }
      confirmed.push(job);
      const status = statuses[i] === "duplicate" || statuses[i] === undefined ? "duplicate" : "created";
      results.push({ endpoint_id: endpointId, status });
    });
  return { kind: "written", results, confirmed };
}

/** One page as written: each endpoint's row status, and the rows whose job could not be added. */
interface WrittenPage {
  readonly page: readonly EndpointId[];
  readonly statuses: readonly (RowStatus | undefined)[];
  readonly failed: ReadonlyMap<string, string>;
}

const NONE_FAILED: ReadonlyMap<string, string> = new Map();

function jobRef(ref: string, endpointId: EndpointId): JobRef {
  return {
    id: endpointDeliveryId(ref, endpointId),
    parentId: ref,
    target: { kind: "endpoint", id: endpointId },
  };
}

/** One fanout being written, in pages. */
interface Fanout {
  readonly deps: FanoutWriteDeps;
  readonly record: EventRecord;
  readonly endpoints: readonly EndpointId[];
  readonly pages: readonly (readonly EndpointId[])[];
  readonly ref: string;
  readonly onFirstPage: (() => void) | undefined;
}

function publishPage({ deps, record, endpoints, pages, ref }: Fanout, index: number) {
  return deps.events.publish(record, pages[index] ?? [], {
    staleAfterMs: deps.staleAfterMs,
    retentionS: deps.retentionS,
    page: pageOf(index, pages.length, endpoints),
    now: deps.now?.() ?? Date.now(),
    ref,
  });
}

/**
 * Rows and jobs in the same script: every page is sent at once (in order on the one connection, so the
 * first page marks the fanout before a later one is written). A conflict is met by the first page, and
 * by every later one too (each checks the event), so nothing of it is written.
 */
async function writeAtOnce(fanout: Fanout): Promise<WrittenPage[] | "conflict"> {
  const { pages, onFirstPage } = fanout;
  const outcomes = await Promise.all(
    pages.map(async (_page, index) => {
      const outcome = await publishPage(fanout, index);
      if (index === 0 && outcome.kind === "written") onFirstPage?.();
      return outcome;
    }),
  );
  const written: WrittenPage[] = [];
  for (const [index, outcome] of outcomes.entries()) {
    if (outcome.kind === "conflict") return "conflict";
    written.push({ page: pages[index] ?? [], statuses: outcome.rows, failed: NONE_FAILED });
  }
  return written;
}

/** Rows by script, then each page's new rows enqueued before the next page is written. */
async function writePageByPage(fanout: Fanout): Promise<WrittenPage[] | "conflict"> {
  const written: WrittenPage[] = [];
  for (const [index, page] of fanout.pages.entries()) {
    const outcome = await publishPage(fanout, index);
    if (outcome.kind === "conflict") return "conflict";
    if (index === 0) fanout.onFirstPage?.();
    const failed = outcome.jobsAdded
      ? NONE_FAILED
      : await enqueueNew(fanout.deps, fanout.ref, page, outcome.rows);
    written.push({ page, statuses: outcome.rows, failed });
  }
  return written;
}

/** Each new (or taken back) row's job on its own: a failure is that endpoint's alone, and is marked. */
async function enqueueNew(
  deps: FanoutWriteDeps,
  ref: string,
  page: readonly EndpointId[],
  statuses: readonly (RowStatus | undefined)[],
): Promise<ReadonlyMap<string, string>> {
  const failed = new Map<string, string>();
  await Promise.all(
    page.map(async (endpointId, i) => {
      const status = statuses[i];
      if (status === "duplicate" || status === undefined) return;
      const job = jobRef(ref, endpointId);
      try {
        await deps.jobs.enqueue([job]);
      } catch (err) {
        const error = (err as Error).message;
        failed.set(job.id, error);
        await deps.events.markEnqueueFailed(job.id, error).catch(() => undefined);
      }
    }),
  );
  return failed;
}

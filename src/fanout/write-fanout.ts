// Writing a fanout: the event and its rows a page of endpoints at a time (each page one atomic,
// idempotent script), each page's new rows enqueued before the next page is written. Shared by the
// publish use case and by recovery, which finishes a fanout whose publisher died between pages: rows are
// unique on (endpoint, event), so a publisher and recovery writing the same pages never make a row
// twice, and only the caller that created (or took back) a row enqueues it.
import type { DeliveryRow } from "../domain/delivery.ts";
import type { EndpointId } from "../domain/ids.ts";
import { eventRef } from "../domain/event.ts";
import {
  type EventRecord,
  type EventStore,
  type FanoutPage,
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

export interface FanoutWriteDeps {
  readonly events: Pick<EventStore, "publish" | "markEnqueueFailed">;
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
  const results: EndpointResult[] = [];
  const confirmed: JobRef[] = [];
  // At least one page: an event nobody takes is still recorded (and expires after retention_s).
  const count = Math.max(1, Math.ceil(endpoints.length / deps.pageSize));
  for (let index = 0; index < count; index++) {
    const page = endpoints.slice(index * deps.pageSize, (index + 1) * deps.pageSize);
    const outcome = await deps.events.publish(record, page, {
      staleAfterMs: deps.staleAfterMs,
      retentionS: deps.retentionS,
      page: pageOf(index, count, endpoints),
      now: deps.now?.() ?? Date.now(),
      ref,
    });
    if (outcome.kind === "conflict") return { kind: "conflict" };
    if (index === 0) onFirstPage?.();
    // Each new row's job on its own: a failure is that endpoint's alone.
    const settled = await Promise.all(
      page.map(async (endpointId, i): Promise<EndpointResult> => {
        const status = outcome.rows[i];
        const job: JobRef = {
          id: endpointDeliveryId(ref, endpointId),
          parentId: ref,
          target: { kind: "endpoint", id: endpointId },
        };
        if (status === "duplicate" || status === undefined) {
          confirmed.push(job);
          return { endpoint_id: endpointId, status: "duplicate" };
        }
        try {
          await deps.jobs.enqueue([job]);
          confirmed.push(job);
          return { endpoint_id: endpointId, status: "created" };
        } catch (err) {
          const error = (err as Error).message;
          await deps.events.markEnqueueFailed(job.id, error).catch(() => undefined);
          return { endpoint_id: endpointId, status: "enqueue_failed", error };
        }
      }),
    );
    results.push(...settled);
  }
  return { kind: "written", results, confirmed };
}

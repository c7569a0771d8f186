// Which outboxes exist: a fact is written into the outbox of the hash tag of the script that decides it,
// and the drainer normally reads only the outboxes marked dirty. A mark can be missing (on a cluster the
// process marks after its script, and may die in between), so the periodic sweep reads every outbox a
// fact can be written to: each bucket's, the endpoints' tag, each configured sink's, the replays queue's
// and the drainer's own, and on a cluster each endpoint's own tag, a page of endpoints per sweep.
import type { Keys } from "../store/keys.ts";
import type { OpsOutbox } from "../store/ops-outbox.ts";

/** The outboxes a sweep always reads (the per-endpoint tags are walked apart, see EndpointTagWalk). */
export function fixedOutboxes(keys: Keys, outbox: OpsOutbox, sinks: readonly string[]): string[] {
  return [
    ...keys.buckets.map((b) => keys.opsOutbox(keys.bucketTag(b))),
    keys.opsOutbox(keys.endpointBase),
    ...sinks.map((sink) => outbox.outboxOf(keys.sinkGate(sink, "breaker"))),
    keys.opsOutbox(keys.queuePrefix("replays")),
    keys.opsOutbox(keys.opsTag),
  ];
}

/** Reads a page of endpoint ids (in id order, after `cursor`), as EndpointStore#list pages them. */
export type EndpointIdPage = (cursor: string | undefined, limit: number) => Promise<string[]>;

/**
 * The per-endpoint outboxes, a page per call, wrapping around: every endpoint's tag is looked at once
 * per (endpoints ÷ page) sweeps, so a deployment with many endpoints pays a page per sweep, not a scan.
 */
export class EndpointTagWalk {
  private cursor: string | undefined;

  constructor(
    private readonly keys: Keys,
    private readonly outbox: OpsOutbox,
    private readonly ids: EndpointIdPage,
    private readonly pageSize = 100,
  ) {}

  async next(): Promise<string[]> {
    const ids = await this.ids(this.cursor, this.pageSize);
    this.cursor = ids.length < this.pageSize ? undefined : ids[ids.length - 1];
    return ids.map((id) => this.outbox.outboxOf(this.keys.endpointGate(id, "breaker")));
  }
}

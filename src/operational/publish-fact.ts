// Publishing one operational fact through the ordinary publish path (src/fanout/publish-event.ts), so it
// is recorded, signed, retried, rate limited and idempotent like any event: its event id is the fact's
// own, and publishing it again answers `duplicate` for every endpoint that has it. A fact is published
// in the operator's scope (tenant-less endpoints) and, when it is about a tenant, once more in that
// tenant's scope (its endpoints only), under the same event id (event ids are scoped by tenant).
import type { OutboxEntry } from "../domain/operational-events.ts";
import { type PublishDeps, publishEvent } from "../fanout/publish-event.ts";

export type FactPublishDeps = Omit<PublishDeps, "mayPublishReserved">;

/** How many endpoints the fact was written to (created or already there), over its scopes. */
export async function publishFact(
  deps: FactPublishDeps,
  eventId: string,
  entry: OutboxEntry,
): Promise<number> {
  const scopes = entry.tenant === undefined ? [undefined] : [undefined, entry.tenant];
  let reached = 0;
  for (const scope of scopes) {
    // A scope nobody subscribes in gets no event record at all (most facts of most deployments).
    const matched = await deps.endpoints.match(scope, entry.type);
    if (matched.length === 0) continue;
    const result = await publishEvent(
      { ...deps, endpoints: { match: () => Promise.resolve(matched) }, mayPublishReserved: true },
      { id: eventId, type: entry.type, payload: entry.data },
      scope,
    );
    reached += result.counts.created + result.counts.duplicate;
  }
  return reached;
}

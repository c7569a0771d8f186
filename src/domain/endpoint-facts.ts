// Which operational facts one change of an endpoint is (created, updated, deleted, disabled, enabled),
// decided from the record before and after it, with the payload each carries. Pure: the endpoint store
// hands the facts to the same script that writes the change, so they are recorded only if it lands.
import type { Endpoint } from "./endpoint.ts";
import { type EndpointSnapshot, endpointSnapshot } from "./endpoint-snapshot.ts";
import { type OperationalType, type OutboxEntry, operationalEventId } from "./operational-events.ts";
import type { DisableCause, EndpointFactData } from "./operational-payloads.ts";

/** One fact to record: its event id and its outbox entry. */
export interface RecordedFact {
  readonly id: string;
  readonly entry: OutboxEntry;
}

/** Fields of the API's view that are not config: they move with every change, or with health. */
const NOT_CONFIG: ReadonlySet<keyof EndpointSnapshot> = new Set([
  "updated_at",
  "version",
  "disabled",
  "disabled_reason",
  "disabled_at",
  "failing_since",
]);

/** The fields of the API's view that differ between `before` and `after`, and `secret` for a rotation. */
export function changedFields(before: Endpoint, after: Endpoint): string[] {
  const a = endpointSnapshot(before);
  const b = endpointSnapshot(after);
  const keys = Object.keys(b) as (keyof EndpointSnapshot)[];
  const changed: string[] = keys.filter(
    (k) => !NOT_CONFIG.has(k) && JSON.stringify(a[k]) !== JSON.stringify(b[k]),
  );
  if (before.secret !== after.secret) changed.push("secret");
  return changed;
}

function fact(
  type: OperationalType,
  e: Endpoint,
  rev: number,
  now: number,
  extra: Record<string, unknown> = {},
): RecordedFact {
  const data: EndpointFactData = {
    endpoint_id: e.id,
    ...(e.tenant === undefined ? {} : { tenant: e.tenant }),
    version: e.version,
    endpoint: endpointSnapshot(e),
  };
  // As JSON carries it (undefined fields gone), so the entry is what a receiver gets.
  const payload = JSON.parse(JSON.stringify({ ...data, ...extra })) as Record<string, unknown>;
  return {
    id: operationalEventId(type, e.id, rev),
    entry: { type, tenant: e.tenant, at: now, data: payload },
  };
}

/**
 * The facts of one endpoint write. `rev` is the record's revision that write makes (every write bumps
 * it, so it tells two changes of one endpoint apart even when the API's `version` does not move, as for
 * a description) or, for a deletion, the revision deleted. `cause` says who disabled it, if it did.
 */
export function endpointFacts(
  before: Endpoint | undefined,
  after: Endpoint | undefined,
  rev: number,
  now: number,
  cause: DisableCause = "operator",
): RecordedFact[] {
  if (after === undefined)
    return before === undefined ? [] : [fact("switchyard.endpoint.deleted", before, rev, now)];
  if (before === undefined) return [fact("switchyard.endpoint.created", after, rev, now)];
  const out: RecordedFact[] = [];
  const changed = changedFields(before, after);
  if (changed.length > 0) out.push(fact("switchyard.endpoint.updated", after, rev, now, { changed }));
  if (!before.disabled && after.disabled)
    out.push(
      fact("switchyard.endpoint.disabled", after, rev, now, {
        cause,
        reason: after.disabled_reason ?? "",
      }),
    );
  if (before.disabled && !after.disabled) out.push(fact("switchyard.endpoint.enabled", after, rev, now));
  return out;
}

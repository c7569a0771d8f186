// `switchyard.dlq.threshold`: the recovery tick looks at how many dead deliveries each DLQ index holds
// (everything, each sink's, endpoint's and tenant's) and records the fact for every index at or above
// `operational.dlq_threshold`, at most once per `operational.dlq_threshold_interval_s` per index (the
// store's guard and the outbox entry are one script, so neither two ticks nor a retried one say it
// twice). Bounded: at most one fact per index per interval, however fast the DLQ grows.
import type { OperationalConfig } from "../config/operational-schema.ts";
import type { Endpoint } from "../domain/endpoint.ts";
import { type OutboxEntry, operationalEventId } from "../domain/operational-events.ts";
import type { DlqThresholdData } from "../domain/operational-payloads.ts";
import type { DlqSizes } from "../store/dlq-sizes.ts";
import type { DlqIndexName } from "../store/keys.ts";

export interface DlqThresholdDeps {
  readonly config: Pick<OperationalConfig, "enabled" | "dlq_threshold" | "dlq_threshold_interval_s">;
  readonly sizes: Pick<DlqSizes, "sizes" | "recordThreshold">;
  /** Endpoints by id (an endpoint's index is about its tenant). */
  readonly endpoints: { getMany(ids: readonly string[]): Promise<Endpoint[]> };
}

const TYPE = "switchyard.dlq.threshold";

/** The tenant an index is about: a tenant's own, or its endpoint's. */
function tenantOf(index: DlqIndexName, endpoints: ReadonlyMap<string, Endpoint>): string | undefined {
  if (index.startsWith("tenant:")) return index.slice("tenant:".length);
  if (index.startsWith("endpoint:")) return endpoints.get(index.slice("endpoint:".length))?.tenant;
  return undefined;
}

/** Check every index once; returns how many facts were recorded. */
export async function checkDlqThresholds(deps: DlqThresholdDeps, now = Date.now()): Promise<number> {
  const { enabled, dlq_threshold: threshold, dlq_threshold_interval_s: intervalS } = deps.config;
  if (!enabled || threshold === 0) return 0;
  const over = [...(await deps.sizes.sizes())].filter(([, size]) => size >= threshold);
  if (over.length === 0) return 0;
  const endpointIds = over.flatMap(([index]) =>
    index.startsWith("endpoint:") ? [index.slice("endpoint:".length)] : [],
  );
  const endpoints = new Map((await deps.endpoints.getMany(endpointIds)).map((e) => [e.id, e]));
  let recorded = 0;
  for (const [index, size] of over) {
    const tenant = tenantOf(index, endpoints);
    const data: DlqThresholdData = {
      index,
      size,
      threshold,
      ...(tenant === undefined ? {} : { tenant }),
      at: new Date(now).toISOString(),
    };
    const entry: OutboxEntry = { type: TYPE, tenant, at: now, data: { ...data } };
    const id = operationalEventId(TYPE, index, now);
    if (await deps.sizes.recordThreshold(index, intervalS * 1000, id, JSON.stringify(entry))) recorded += 1;
  }
  return recorded;
}

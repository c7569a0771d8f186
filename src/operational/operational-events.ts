// Assembles the operational events of one process: the outbox store the fact-writing scripts' callers
// use, and the drainer that publishes what they wrote, kicked whenever this process wrote a fact. Both
// roles that decide facts (dispatch: deliveries; api: endpoint changes) and the recovery tick share it.
import type { Config } from "../config/schema.ts";
import type { Logger } from "../observability/logger.ts";
import type { Metrics } from "../observability/metrics.ts";
import type { EndpointStore } from "../store/endpoint-store.ts";
import type { OpsOutbox } from "../store/ops-outbox.ts";
import { type RedisClient, isCluster } from "../store/redis-client.ts";
import type { FactPublishDeps } from "./publish-fact.ts";
import { publishFact } from "./publish-fact.ts";
import { OpsDrainer } from "./drainer.ts";
import { EndpointTagWalk, fixedOutboxes } from "./outbox-sweep.ts";

export interface OperationalEvents {
  readonly outbox: OpsOutbox;
  readonly drainer: OpsDrainer;
}

export interface OperationalDeps {
  readonly config: Config;
  /** The outboxes (the ledger's scripts write into them through the same OpsOutbox). */
  readonly outbox: OpsOutbox;
  readonly redis: RedisClient;
  readonly metrics: Metrics;
  readonly logger: Logger;
  readonly endpoints: Pick<EndpointStore, "list">;
  /** How facts are published (the publish use case's deps, without the reserved-namespace switch). */
  readonly publish: FactPublishDeps;
}

export function createOperationalEvents(deps: OperationalDeps): OperationalEvents {
  const { config, redis, outbox } = deps;
  const keys = outbox.keys;
  const endpointTags = isCluster(redis)
    ? new EndpointTagWalk(keys, outbox, async (cursor, limit) => {
        const page = await deps.endpoints.list({ limit, ...(cursor !== undefined ? { cursor } : {}) });
        return page.endpoints.map((e) => e.id);
      })
    : undefined;
  const drainer = new OpsDrainer({
    outbox,
    publish: (eventId, entry) => publishFact(deps.publish, eventId, entry),
    config: config.operational,
    metrics: deps.metrics,
    logger: deps.logger,
    fixedOutboxes: fixedOutboxes(keys, outbox, Object.keys(config.sinks)),
    ...(endpointTags ? { endpointTags } : {}),
  });
  outbox.onWrite(() => drainer.kick());
  return { outbox, drainer };
}

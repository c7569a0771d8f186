// What every role of a process shares: the config, one command connection to Redis, the stores and
// the producer side of the queues.
import type { RedisClient } from "../../store/redis-client.ts";
import type { Config } from "../../config/schema.ts";
import type { ClaimSigner } from "../../domain/claim-signature.ts";
import type { Logger } from "../../observability/logger.ts";
import type { Metrics } from "../../observability/metrics.ts";
import type { Tracing } from "../../observability/tracing.ts";
import type { DeliveryQueueing } from "../../queue/delivery-queueing.ts";
import type { ReplayQueue } from "../../queue/replay-queue.ts";
import type { DeliveryStore } from "../../store/delivery-store.ts";
import type { DlqStore } from "../../store/dlq-store.ts";
import type { EndpointStore } from "../../store/endpoint-store.ts";
import type { EventStore } from "../../store/event-store.ts";
import type { HookStore } from "../../store/hook-store.ts";
import type { Keys } from "../../store/keys.ts";
import type { ReplayStore } from "../../store/replay-store.ts";
import type { OperationalEvents } from "../../operational/operational-events.ts";
import type { Lifecycle } from "../lifecycle.ts";

export interface Core {
  readonly config: Config;
  readonly keys: Keys;
  readonly logger: Logger;
  readonly metrics: Metrics;
  /** Spans of ingests and attempts; TRACING_OFF unless the OTEL_* variables configure an exporter. */
  readonly tracing: Tracing;
  readonly life: Lifecycle;
  /** Fail-fast command connection (no offline queue). */
  readonly redis: RedisClient;
  readonly hooks: HookStore;
  /** The delivery ledger on the fail-fast connection (API, recovery). */
  readonly ledger: DeliveryStore;
  readonly dlq: DlqStore;
  readonly endpoints: EndpointStore;
  readonly events: EventStore;
  readonly queues: DeliveryQueueing;
  readonly replays: ReplayStore;
  readonly replayQueue: ReplayQueue;
  /** The outboxes of operational facts and the drainer that publishes them (kicked by every write). */
  readonly operational: OperationalEvents;
  /** Signs claim URLs (dispatch) and checks them (API), with the deployment's one key. */
  readonly claimSigner: ClaimSigner;
  /** Base URL consumers reach this gateway at (claim-check links); known once the API listens. */
  publicUrl(): string;
}

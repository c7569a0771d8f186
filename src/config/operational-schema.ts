// The `operational:` section: how the gateway tells operators and tenants about itself as signed
// `switchyard.*` events (src/domain/operational-events.ts). Its own module so the per-delivery knobs and
// the rare facts' knobs (added beside them) read as one section.
import { z } from "zod";
import { strict } from "./unknown-keys.ts";
import { nonNegativeInt, positiveInt } from "./fields.ts";

export const operationalSchema = strict
  .object({
    /** Off: no fact is recorded and none is published (entries already waiting stay until it is on). */
    enabled: z.boolean().default(true),
    /**
     * Consecutive failed attempts of one outbound delivery after which `switchyard.delivery.failing` is
     * sent (once per run of failures, when the attempt count reaches exactly this).
     */
    failing_after: positiveInt.max(1000).default(4),
    /**
     * Per-delivery facts (`delivery.*`, `hook.dead`) sent per target (an endpoint, a sink) per minute;
     * beyond it they are counted (suppressed) and not sent, so a burst stays bounded. 0: no limit.
     */
    delivery_events_per_minute: nonNegativeInt.default(60),
    /** How long a process waits after deciding a fact before it publishes it (batching a burst). */
    flush_ms: positiveInt.max(60_000).default(100),
    /**
     * Dead deliveries in one DLQ index (all, a sink's, an endpoint's, a tenant's) at which the recovery
     * tick sends `switchyard.dlq.threshold`. 0: never.
     */
    dlq_threshold: nonNegativeInt.default(1000),
    /** At most one `switchyard.dlq.threshold` per index in this many seconds while it stays at or above. */
    dlq_threshold_interval_s: positiveInt.default(3600),
  })
  .prefault({});
export type OperationalConfig = z.infer<typeof operationalSchema>;

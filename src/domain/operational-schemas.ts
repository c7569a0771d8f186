// Every operational event type's payload, documented in one place: the event catalog lists them as
// built-in types, /asyncapi.json describes them as messages, the README shows their examples, and a
// test checks each example against its schema. A type added to OPERATIONAL_TYPES without an entry here
// does not compile.
import type { OperationalType } from "./operational-events.ts";
import {
  deliveryExhausted,
  deliveryFailing,
  deliveryRecovered,
  hookDead,
} from "./operational-delivery-schemas.ts";
import {
  type PayloadDoc,
  breakerClosed,
  breakerOpened,
  dlqThreshold,
  endpointCreated,
  endpointDeleted,
  endpointDisabled,
  endpointEnabled,
  endpointUpdated,
  replayFinished,
} from "./operational-fact-schemas.ts";

export type { JsonSchema, PayloadDoc } from "./operational-fact-schemas.ts";

export const OPERATIONAL_SCHEMAS: Readonly<Record<OperationalType, PayloadDoc>> = {
  "switchyard.endpoint.created": endpointCreated,
  "switchyard.endpoint.updated": endpointUpdated,
  "switchyard.endpoint.deleted": endpointDeleted,
  "switchyard.endpoint.disabled": endpointDisabled,
  "switchyard.endpoint.enabled": endpointEnabled,
  "switchyard.delivery.failing": deliveryFailing,
  "switchyard.delivery.exhausted": deliveryExhausted,
  "switchyard.delivery.recovered": deliveryRecovered,
  "switchyard.hook.dead": hookDead,
  "switchyard.breaker.opened": breakerOpened,
  "switchyard.breaker.closed": breakerClosed,
  "switchyard.dlq.threshold": dlqThreshold,
  "switchyard.replay.finished": replayFinished,
};

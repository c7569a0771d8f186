// JSON Schemas (draft-07, which AsyncAPI's schema format extends) and examples of the operational facts
// about endpoints, breakers, DLQ sizes and replays. The examples are typed by the payload interfaces
// (operational-payloads.ts) and checked against these schemas by a test, so schema, type and example
// agree; the README's examples are generated from here too.
import type { EndpointSnapshot } from "./endpoint-snapshot.ts";
import { ERROR_CLASSES } from "./error-class.ts";
import { PAYLOAD_FORMATS } from "./outbound-body.ts";
import type {
  BreakerFactData,
  DlqThresholdData,
  EndpointDisabledData,
  EndpointFactData,
  EndpointUpdatedData,
  ReplayFinishedData,
} from "./operational-payloads.ts";

export type JsonSchema = Readonly<Record<string, unknown>>;

/** A payload's documentation: what it means, its schema and an example that the schema accepts. */
export interface PayloadDoc<T = unknown> {
  readonly description: string;
  readonly schema: JsonSchema;
  readonly example: T;
}

export const instant = { type: "string", format: "date-time" } as const;
export const tenantField = {
  type: "string",
  description: "The tenant the fact is about; absent when none (an operator's endpoint, a sink).",
} as const;
const count = { type: "integer", minimum: 0 } as const;

/**
 * An object schema whose listed properties are all required unless named in `optional` (a `tenant`
 * field never is: it is absent when the fact is about no tenant).
 */
export function objectSchema(
  properties: Readonly<Record<string, JsonSchema>>,
  optional: readonly string[] = [],
  description?: string,
): JsonSchema {
  return {
    type: "object",
    ...(description === undefined ? {} : { description }),
    required: Object.keys(properties).filter((k) => !optional.includes(k) && properties[k] !== tenantField),
    properties,
    additionalProperties: false,
  };
}

/** The endpoint as the API shows it (GET /v1/endpoints/{id}): never a secret. */
const endpointSnapshotSchema = objectSchema(
  {
    id: { type: "string", description: "ep_…" },
    url: { type: "string", description: "A password in the URL is shown as ***." },
    event_types: { type: "array", items: { type: "string" } },
    tenant: { type: "string" },
    headers: {
      type: "object",
      additionalProperties: { type: "string" },
      description: "Credential-like values are shown as [redacted].",
    },
    rate_limit_per_s: { type: "integer" },
    payload_format: { type: "string", enum: [...PAYLOAD_FORMATS] },
    disabled: { type: "boolean" },
    disabled_reason: { type: "string" },
    disabled_at: instant,
    description: { type: "string" },
    version: { type: "integer", minimum: 1 },
    created_at: instant,
    updated_at: instant,
    failing_since: instant,
  },
  ["tenant", "rate_limit_per_s", "disabled_reason", "disabled_at", "description", "failing_since"],
  "The endpoint as the API shows it: no secret, a URL password and credential header values masked.",
);

const endpointFields = {
  endpoint_id: { type: "string", description: "ep_…" },
  tenant: tenantField,
  version: { type: "integer", minimum: 1, description: "The endpoint's version after the change." },
  endpoint: endpointSnapshotSchema,
} as const;

const snapshot: EndpointSnapshot = {
  id: "ep_01kbqz5w3m8h2x7c4v9n6r1t0a",
  url: "https://hooks.acme.example/switchyard",
  event_types: ["order.*", "switchyard.*"],
  tenant: "acme",
  headers: { "x-team": "billing", authorization: "[redacted]" },
  rate_limit_per_s: undefined,
  payload_format: "standard",
  disabled: false,
  disabled_reason: undefined,
  disabled_at: undefined,
  description: "Billing's receiver",
  version: 1,
  created_at: "2026-12-06T09:14:03.120Z",
  updated_at: "2026-12-06T09:14:03.120Z",
  failing_since: undefined,
};

/** `value` as JSON carries it: undefined fields gone (the examples are what a receiver sees). */
const asSent = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

const endpointBase = (version: number, changes: Partial<EndpointSnapshot> = {}): EndpointFactData =>
  asSent({
    endpoint_id: snapshot.id,
    tenant: "acme",
    version,
    endpoint: { ...snapshot, version, ...changes },
  });

export const endpointCreated: PayloadDoc<EndpointFactData> = {
  description: "An endpoint was created (through the API or the portal).",
  schema: objectSchema(endpointFields),
  example: endpointBase(1),
};

export const endpointUpdated: PayloadDoc<EndpointUpdatedData> = {
  description:
    "An endpoint's config changed (or its secret was rotated: `changed` names `secret`, never its value).",
  schema: objectSchema({
    ...endpointFields,
    changed: {
      type: "array",
      items: { type: "string" },
      minItems: 1,
      description: "The fields of the API's view that changed, and `secret` for a rotation.",
    },
  }),
  example: {
    ...endpointBase(2, {
      url: "https://hooks-v2.acme.example/switchyard",
      updated_at: "2026-12-06T10:02:41.500Z",
    }),
    changed: ["url"],
  },
};

export const endpointDeleted: PayloadDoc<EndpointFactData> = {
  description: "An endpoint was deleted; `endpoint` is how it was just before.",
  schema: objectSchema(endpointFields),
  example: endpointBase(2),
};

const disabledAt = "2026-12-06T11:30:00.000Z";
export const endpointDisabled: PayloadDoc<EndpointDisabledData> = {
  description:
    "An endpoint stopped receiving: an operator disabled it, it answered 410 Gone, or it failed without a success for `outbound.disable_after_ms`.",
  schema: objectSchema({
    ...endpointFields,
    cause: { type: "string", enum: ["operator", "gone", "failing"] },
    reason: { type: "string", description: "The endpoint's disabled_reason." },
  }),
  example: {
    ...endpointBase(3, {
      disabled: true,
      disabled_reason: "the endpoint answered 410 Gone",
      disabled_at: disabledAt,
      updated_at: disabledAt,
    }),
    cause: "gone",
    reason: "the endpoint answered 410 Gone",
  },
};

export const endpointEnabled: PayloadDoc<EndpointFactData> = {
  description: "A disabled endpoint was enabled again (its failure clock starts afresh).",
  schema: objectSchema(endpointFields),
  example: endpointBase(4, { updated_at: "2026-12-06T12:00:00.000Z" }),
};

const breakerSchema = (state: "open" | "closed", period: string): JsonSchema =>
  objectSchema({
    target: {
      oneOf: [
        objectSchema({ kind: { const: "sink" }, name: { type: "string" } }),
        objectSchema({ kind: { const: "endpoint" }, id: { type: "string" } }),
      ],
    },
    tenant: tenantField,
    state: { const: state },
    open_period_ms: { type: "integer", minimum: 0, description: period },
    at: instant,
  });

export const breakerOpened: PayloadDoc<BreakerFactData> = {
  description:
    "A sink's or an endpoint's circuit breaker opened: attempts wait out the open period, then one probe decides.",
  schema: breakerSchema("open", "How long it stays open before one probe goes out."),
  example: {
    target: { kind: "endpoint", id: snapshot.id },
    tenant: "acme",
    state: "open",
    open_period_ms: 30_000,
    at: "2026-12-06T11:02:13.004Z",
  },
};

export const breakerClosed: PayloadDoc<BreakerFactData> = {
  description: "A circuit breaker closed: its probe succeeded.",
  schema: breakerSchema("closed", "The open period it closed from."),
  example: {
    target: { kind: "sink", name: "orders-amqp" },
    state: "closed",
    open_period_ms: 60_000,
    at: "2026-12-06T11:04:20.310Z",
  },
};

export const dlqThreshold: PayloadDoc<DlqThresholdData> = {
  description:
    "A DLQ index holds at least `operational.dlq_threshold` dead deliveries; said at most once per `operational.dlq_threshold_interval_s` per index while it does.",
  schema: objectSchema({
    index: {
      type: "string",
      pattern: "^(all|(sink|endpoint|tenant):.+)$",
      description: "`all`, `sink:<name>`, `endpoint:<id>` or `tenant:<name>`.",
    },
    size: count,
    threshold: { type: "integer", minimum: 1 },
    tenant: tenantField,
    at: instant,
  }),
  example: {
    index: "tenant:acme",
    size: 1204,
    threshold: 1000,
    tenant: "acme",
    at: "2026-12-06T11:05:00.000Z",
  },
};

export const replayFinished: PayloadDoc<ReplayFinishedData> = {
  description: "A DLQ replay ended: it walked everything it matched (done) or was cancelled.",
  schema: objectSchema({
    replay_id: { type: "string", description: "rp_…" },
    tenant: tenantField,
    state: { type: "string", enum: ["done", "cancelled"] },
    filter: objectSchema(
      {
        source: { type: "string" },
        sink: { type: "string" },
        endpoint: { type: "string" },
        error_class: { type: "string", enum: [...ERROR_CLASSES] },
        since: instant,
        until: instant,
        ids: { type: "array", items: { type: "string" } },
      },
      ["source", "sink", "endpoint", "error_class", "since", "until", "ids"],
      "The replay's filter as the API shows it.",
    ),
    matched: count,
    moved: count,
    failed: count,
    total_estimate: count,
    created_at: instant,
    finished_at: instant,
  }),
  example: {
    replay_id: "rp_01kbqzc1d9f3g5h7j2k4m6n8p0",
    tenant: "acme",
    state: "done",
    filter: { endpoint: snapshot.id, since: "2026-12-06T11:00:00.000Z" },
    matched: 1204,
    moved: 1203,
    failed: 1,
    total_estimate: 1204,
    created_at: "2026-12-06T12:01:00.000Z",
    finished_at: "2026-12-06T12:01:02.418Z",
  },
};

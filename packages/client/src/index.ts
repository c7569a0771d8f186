// @switchyard/client: the typed client of Switchyard's HTTP API, and the verifier of its deliveries.
export {
  type Breakers,
  type DlqEntry,
  type DlqQuery,
  type Endpoint,
  type EndpointBreaker,
  type EndpointInput,
  type EndpointListQuery,
  type EndpointPatch,
  type EndpointWithSecret,
  type Event,
  type EventDelivery,
  type EventInput,
  type Hook,
  type Page,
  type PublishResult,
  type QuarantineQuery,
  type QuarantinedHook,
  type Replay,
  type ReplayInput,
  type ReplayListQuery,
  type SinkBreaker,
  type SwitchyardClient,
  type SwitchyardClientOptions,
  createSwitchyardClient,
} from "./client.ts";
export { type ApiErrorCode, SwitchyardApiError, SwitchyardConnectionError } from "./errors.ts";
export type { FetchLike, RetryOptions } from "./retrying-fetch.ts";
export type { components, paths } from "./schema.ts";
export {
  type DeliveryHeaders,
  type VerifiedDelivery,
  WebhookVerificationError,
  verifyDelivery,
} from "./verify.ts";

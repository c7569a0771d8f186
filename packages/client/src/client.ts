// The typed client of Switchyard's HTTP API, on openapi-fetch and the types generated from the API's
// OpenAPI document: every path, parameter and answer below is checked against that document when this
// package is compiled. Failures throw SwitchyardApiError (with the API's `error.code`) or
// SwitchyardConnectionError; 503s are retried after their Retry-After (retrying-fetch.ts).
import createFetchClient, { type Client } from "openapi-fetch";
import { SwitchyardApiError } from "./errors.ts";
import { type FetchLike, type RetryOptions, retryingFetch } from "./retrying-fetch.ts";
import type { components, paths } from "./schema.ts";

type Schemas = components["schemas"];
export type Endpoint = Schemas["Endpoint"];
export type EndpointWithSecret = Schemas["EndpointWithSecret"];
export type EndpointInput = Schemas["EndpointInput"];
export type EndpointPatch = Schemas["EndpointPatch"];
export type EventInput = Schemas["EventInput"];
export type PublishResult = Schemas["PublishResult"];
export type Event = Schemas["Event"];
export type EventDelivery = Schemas["EventDelivery"];
export type Hook = Schemas["Hook"];
export type DlqEntry = Schemas["DlqEntry"];
export type Replay = Schemas["Replay"];
export type ReplayInput = Schemas["ReplayInput"];
export type QuarantinedHook = Schemas["QuarantinedHook"];
export type SinkBreaker = Schemas["SinkBreaker"];
export type EndpointBreaker = Schemas["EndpointBreaker"];
export type Breakers = paths["/v1/breakers"]["get"]["responses"][200]["content"]["application/json"];
export type DlqQuery = NonNullable<paths["/v1/dlq"]["get"]["parameters"]["query"]>;
export type ReplayListQuery = NonNullable<paths["/v1/replays"]["get"]["parameters"]["query"]>;
export type EndpointListQuery = NonNullable<paths["/v1/endpoints"]["get"]["parameters"]["query"]>;
export type QuarantineQuery = NonNullable<paths["/v1/quarantine"]["get"]["parameters"]["query"]>;
export type EndpointCreated = Schemas["EndpointCreated"];
export type DeliveryWithAttempts = Schemas["DeliveryWithAttempts"];
export type DeliveryListed = Schemas["DeliveryListed"];
export type Attempt = Schemas["Attempt"];
export type EndpointStats = Schemas["EndpointStats"];
export type EventType = Schemas["EventType"];
export type EventTypeInput = Schemas["EventTypeInput"];
export type PortalSessionInput = Schemas["PortalSessionInput"];
export type PortalLink = Schemas["PortalLink"];
export type EndpointDeliveriesQuery = NonNullable<
  paths["/v1/endpoints/{id}/deliveries"]["get"]["parameters"]["query"]
>;

/** A page of a list and the cursor of the next one (null on the last page). */
export interface Page<T> {
  readonly data: T[];
  readonly next_cursor: string | null;
}

export interface SwitchyardClientOptions extends RetryOptions {
  /** The gateway's address, e.g. http://127.0.0.1:3000. */
  readonly baseUrl: string;
  /** An admin token (`admin.tokens`), sent as a bearer token. */
  readonly token?: string;
  /** The fetch to send with (default: the global one). */
  readonly fetch?: FetchLike;
}

/** Await an openapi-fetch call: its data, or a SwitchyardApiError carrying the API's error code. */
async function ok<D>(pending: Promise<{ data?: D; error?: unknown; response: Response }>): Promise<D> {
  const { data, error, response } = await pending;
  if (!response.ok) throw SwitchyardApiError.from(response, error);
  return data as D;
}

/** Every item of a listing, page after page, following next_cursor until the last. */
async function* everyItem<T>(page: (cursor: string | undefined) => Promise<Page<T>>): AsyncGenerator<T> {
  let cursor: string | undefined;
  do {
    const { data, next_cursor } = await page(cursor);
    yield* data;
    cursor = next_cursor ?? undefined;
  } while (cursor !== undefined);
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const isFinal = (replay: Replay): boolean => replay.state === "done" || replay.state === "cancelled";

export type SwitchyardClient = ReturnType<typeof createSwitchyardClient>;

export function createSwitchyardClient(opts: SwitchyardClientOptions) {
  const baseUrl = opts.baseUrl.replace(/\/+$/, "");
  const api: Client<paths> = createFetchClient<paths>({
    baseUrl,
    fetch: retryingFetch(opts.fetch ?? ((request) => fetch(request)), opts),
    ...(opts.token ? { headers: { authorization: `Bearer ${opts.token}` } } : {}),
  });
  // The API refuses a write that does not declare JSON, a body-less one (DELETE, rotate-secret) too.
  api.use({
    onRequest({ request }) {
      if (request.method !== "GET" && request.method !== "HEAD" && !request.headers.has("content-type"))
        request.headers.set("content-type", "application/json");
      return request;
    },
  });
  const id = (value: string) => ({ path: { id: value } });

  const endpoints = {
    create: (input: EndpointInput) => ok(api.POST("/v1/endpoints", { body: input })),
    list: (query: EndpointListQuery = {}) => ok(api.GET("/v1/endpoints", { params: { query } })),
    /** Every endpoint, in creation order. */
    all: (query: Omit<EndpointListQuery, "cursor"> = {}) =>
      everyItem((cursor) => endpoints.list({ ...query, ...(cursor ? { cursor } : {}) })),
    get: (endpointId: string) => ok(api.GET("/v1/endpoints/{id}", { params: id(endpointId) })),
    update: (endpointId: string, patch: EndpointPatch) =>
      ok(api.PATCH("/v1/endpoints/{id}", { params: id(endpointId), body: patch })),
    delete: (endpointId: string) => ok(api.DELETE("/v1/endpoints/{id}", { params: id(endpointId) })),
    /** A new signing secret (generated unless given); the previous one keeps signing for 24 h. */
    rotateSecret: (endpointId: string, secret?: string) =>
      ok(
        api.POST("/v1/endpoints/{id}/rotate-secret", {
          params: id(endpointId),
          ...(secret !== undefined ? { body: { secret } } : {}),
        }),
      ),
    /** One page of the endpoint's deliveries, newest first. */
    deliveriesPage: (endpointId: string, query: EndpointDeliveriesQuery = {}) =>
      ok(api.GET("/v1/endpoints/{id}/deliveries", { params: { ...id(endpointId), query } })),
    /** Every delivery of the endpoint, newest first, following the cursors (a page may be short). */
    deliveries: (endpointId: string, query: Omit<EndpointDeliveriesQuery, "cursor"> = {}) =>
      everyItem((cursor) =>
        endpoints.deliveriesPage(endpointId, { ...query, ...(cursor ? { cursor } : {}) }),
      ),
    /** The endpoint's health over the last hour and day, its breaker and whether it is disabled. */
    stats: (endpointId: string) => ok(api.GET("/v1/endpoints/{id}/stats", { params: id(endpointId) })),
    /** Publish a test event (switchyard.test unless `type` is given) to this endpoint only. */
    sendTestEvent: (endpointId: string, type?: string) =>
      ok(
        api.POST("/v1/endpoints/{id}/test-event", {
          params: id(endpointId),
          ...(type !== undefined ? { body: { type } } : {}),
        }),
      ),
  };

  const events = {
    /**
     * Publish an event. Without an `id` one is made here, before the first attempt, so a retried publish
     * (after a 503, or by the caller) is the same event, never a second one.
     */
    publish: (input: Omit<EventInput, "id"> & { id?: string }) =>
      ok(api.POST("/v1/events", { body: { ...input, id: input.id ?? globalThis.crypto.randomUUID() } })),
    get: (eventId: string, tenant?: string) =>
      ok(api.GET("/v1/events/{id}", { params: { ...id(eventId), query: tenant ? { tenant } : {} } })),
    deliveries: (eventId: string, tenant?: string) =>
      ok(
        api.GET("/v1/events/{id}/deliveries", {
          params: { ...id(eventId), query: tenant ? { tenant } : {} },
        }),
      ),
  };

  const dlq = {
    list: (query: DlqQuery = {}) => ok(api.GET("/v1/dlq", { params: { query } })),
    /** Every matching entry, newest first, page after page. */
    entries: (query: Omit<DlqQuery, "cursor"> = {}) =>
      everyItem((cursor) => dlq.list({ ...query, ...(cursor ? { cursor } : {}) })),
    purge: (entryId: string) => ok(api.DELETE("/v1/dlq/{id}", { params: id(entryId) })),
  };

  const setState = (replayId: string, state: "running" | "paused" | "cancelled") =>
    ok(api.PATCH("/v1/replays/{id}", { params: id(replayId), body: { state } }));
  const replays = {
    create: (input: Partial<ReplayInput> = {}) => ok(api.POST("/v1/replays", { body: input as ReplayInput })),
    list: (query: ReplayListQuery = {}) => ok(api.GET("/v1/replays", { params: { query } })),
    all: (query: Omit<ReplayListQuery, "cursor"> = {}) =>
      everyItem((cursor) => replays.list({ ...query, ...(cursor ? { cursor } : {}) })),
    get: (replayId: string) => ok(api.GET("/v1/replays/{id}", { params: id(replayId) })),
    pause: (replayId: string) => setState(replayId, "paused"),
    resume: (replayId: string) => setState(replayId, "running"),
    cancel: (replayId: string) => setState(replayId, "cancelled"),
    /** The replay's progress every `intervalMs` (default 1 s), ending with it done or cancelled. */
    async *progress(replayId: string, intervalMs = 1000): AsyncGenerator<Replay> {
      for (;;) {
        const replay = await replays.get(replayId);
        yield replay;
        if (isFinal(replay)) return;
        await sleep(intervalMs);
      }
    },
  };

  return {
    /** The underlying openapi-fetch client, for what the helpers below do not cover. */
    api,
    hooks: {
      get: (hookId: string, opts: { body?: boolean } = {}) =>
        ok(
          api.GET("/v1/hooks/{id}", {
            params: { ...id(hookId), query: opts.body ? { include: "body" } : {} },
          }),
        ),
    },
    endpoints,
    events,
    dlq,
    replays,
    breakers: { list: () => ok(api.GET("/v1/breakers")) },
    /** One delivery of either direction with its attempt history. */
    deliveries: {
      get: (deliveryId: string) => ok(api.GET("/v1/deliveries/{id}", { params: id(deliveryId) })),
    },
    /** The event catalog. */
    eventTypes: {
      list: () => ok(api.GET("/v1/event-types")),
      /** Declare (or redeclare) an event type: a token bound to no tenant only. */
      declare: (input: EventTypeInput) => ok(api.POST("/v1/event-types", { body: input })),
    },
    portal: {
      /** A single-use link into the tenant portal (the token is in its fragment). */
      createSession: (input: PortalSessionInput) => ok(api.POST("/v1/portal/sessions", { body: input })),
    },
    quarantine: {
      list: (query: QuarantineQuery = {}) => ok(api.GET("/v1/quarantine", { params: { query } })),
      get: (hookId: string, opts: { body?: boolean } = {}) =>
        ok(
          api.GET("/v1/quarantine/{id}", {
            params: { ...id(hookId), query: opts.body ? { include: "body" } : {} },
          }),
        ),
    },
  };
}

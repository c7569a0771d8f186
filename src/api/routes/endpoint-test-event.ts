// POST /v1/endpoints/:id/test-event: publish a test event to one endpoint only, so a tenant can check its
// receiver (and its signature check) without its other endpoints hearing of it. It is a real event,
// signed, retried and recorded like any other; it goes through the same publish use case.
import { Hono, type MiddlewareHandler } from "hono";
import type { Endpoint } from "../../domain/endpoint.ts";
import { isId } from "../../domain/ids.ts";
import { type PublishDeps, PublishRefused, publishEvent } from "../../fanout/publish-event.ts";
import type { EndpointStore } from "../../store/endpoint-store.ts";
import { type AdminEnv, canSee } from "../admin-auth.ts";
import { ApiError } from "../api-error.ts";
import { sendTestEvent } from "../contract/portal.ts";
import { ENDPOINT_BODY_MAX_BYTES } from "../read-body.ts";
import { apiGroup, cappedJson } from "../route-group.ts";

/** The type a test event has unless the caller names another. */
export const TEST_EVENT_TYPE = "switchyard.test";

export interface EndpointTestEventDeps extends Omit<PublishDeps, "endpoints"> {
  readonly endpoints: Pick<EndpointStore, "get">;
  readonly auth: MiddlewareHandler<AdminEnv>;
}

export function endpointTestEventRoutes(deps: EndpointTestEventDeps): Hono {
  const app = apiGroup<AdminEnv>();
  const body = cappedJson<AdminEnv>(ENDPOINT_BODY_MAX_BYTES, { emptyIsObject: true });

  app.openapi({ ...sendTestEvent, middleware: [deps.auth, body] as const }, async (c) => {
    const id = c.req.param("id");
    const tenant = c.get("principal").tenant;
    const endpoint: Endpoint | undefined = isId("ep", id) ? await deps.endpoints.get(id) : undefined;
    if (!endpoint || !canSee({ tenant }, endpoint.tenant))
      throw new ApiError(404, "not_found", "no such endpoint");
    const { type = TEST_EVENT_TYPE } = c.req.valid("json");
    const sentAt = new Date().toISOString();
    try {
      const result = await publishEvent(
        // Its default type is in the reserved namespace, and it reaches only this endpoint.
        { ...deps, endpoints: { match: () => Promise.resolve([endpoint]) }, mayPublishReserved: true },
        {
          type,
          payload: {
            test: true,
            message: "A test event sent from Switchyard",
            endpoint_id: id,
            sent_at: sentAt,
          },
        },
        endpoint.tenant,
      );
      return c.json({ ...result, results: [...result.results] }, 202);
    } catch (err) {
      if (err instanceof PublishRefused) throw new ApiError(400, "invalid_request", err.message);
      throw err;
    }
  });

  // Mounted on a plain app so it sits beside the public routes in createApp.
  return new Hono().route("/", app);
}

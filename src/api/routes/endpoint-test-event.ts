// POST /v1/endpoints/:id/test-event: publish a test event to one endpoint only, so a tenant can check its
// receiver (and its signature check) without its other endpoints hearing of it. It is a real event,
// signed, retried and recorded like any other; it goes through the same publish use case.
import { Hono, type MiddlewareHandler } from "hono";
import { z } from "zod";
import type { Endpoint } from "../../domain/endpoint.ts";
import { isEventType } from "../../domain/event.ts";
import { isId } from "../../domain/ids.ts";
import { type PublishDeps, PublishRefused, publishEvent } from "../../fanout/publish-event.ts";
import type { EndpointStore } from "../../store/endpoint-store.ts";
import { type AdminEnv, canSee } from "../admin-auth.ts";
import { ApiError } from "../api-error.ts";
import { readBody } from "../endpoint-body.ts";

/** The type a test event has unless the caller names another. */
export const TEST_EVENT_TYPE = "switchyard.test";

export interface EndpointTestEventDeps extends Omit<PublishDeps, "endpoints"> {
  readonly endpoints: Pick<EndpointStore, "get">;
  readonly auth: MiddlewareHandler<AdminEnv>;
}

const body = z.strictObject({
  type: z.string().refine(isEventType, "must be an event type (no pattern)").optional(),
});

export function endpointTestEventRoutes(deps: EndpointTestEventDeps): Hono {
  const app = new Hono<AdminEnv>();

  app.post("/v1/endpoints/:id/test-event", deps.auth, async (c) => {
    const id = c.req.param("id");
    const tenant = c.get("principal").tenant;
    const endpoint: Endpoint | undefined = isId("ep", id) ? await deps.endpoints.get(id) : undefined;
    if (!endpoint || !canSee({ tenant }, endpoint.tenant))
      throw new ApiError(404, "not_found", "no such endpoint");
    const { type = TEST_EVENT_TYPE } = await readBody(c.req.raw, body, true);
    const sentAt = new Date().toISOString();
    try {
      const result = await publishEvent(
        { ...deps, endpoints: { match: () => Promise.resolve([endpoint]) } },
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
      return c.json(result, 202);
    } catch (err) {
      if (err instanceof PublishRefused) throw new ApiError(400, "invalid_request", err.message);
      throw err;
    }
  });

  // Mounted on a plain app so it sits beside the public routes in createApp.
  return new Hono().route("/", app);
}

// The HTTP API as one Hono app: routes are mounted here and `onError` is the single place that turns
// errors into answers (`{"error":{"code","message"}}`).
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { DomainError } from "../domain/errors.ts";
import type { Logger } from "../observability/logger.ts";
import { asStoreUnavailable } from "../store/store-errors.ts";
import { ApiError, INGEST_STATUS } from "./api-error.ts";

/** Build the app from route groups; each group is a Hono sub-app mounted at `/`. */
export function createApp(routes: readonly Hono[], logger: Logger): Hono {
  const app = new Hono();
  for (const group of routes) app.route("/", group);

  app.notFound(() => {
    throw new ApiError(404, "not_found", "no such route");
  });

  app.onError((err, c) => {
    if (err instanceof ApiError) {
      for (const [name, value] of Object.entries(err.headers)) c.header(name, value);
      return c.json({ error: { code: err.code, message: err.message } }, err.status);
    }
    // A declared route's own gate (a write whose media type the route does not take), or a body its
    // validator could not read: the same answers as the guards give.
    if (err instanceof HTTPException && (err.status === 415 || err.status === 400)) {
      const code = err.status === 415 ? "unsupported_media_type" : "invalid_request";
      return c.json({ error: { code, message: err.message } }, err.status);
    }
    // A domain error, or a Redis outage met by any route: the same status for the same cause.
    const domain = err instanceof DomainError ? err : asStoreUnavailable(err);
    if (domain) {
      if (domain.code === "store_unavailable")
        logger.warn({ err: (err as Error).message }, "store unavailable while answering a request");
      if (domain.retryAfterS !== undefined) c.header("retry-after", String(domain.retryAfterS));
      return c.json({ error: { code: domain.code, message: domain.message } }, INGEST_STATUS[domain.code]);
    }
    logger.error({ err }, "unhandled error in request");
    return c.json({ error: { code: "internal", message: "internal error" } }, 500);
  });
  return app;
}

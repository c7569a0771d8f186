// GET /asyncapi.json: the AsyncAPI 3.0 document of the queue sinks' channels. Public: it is built from
// sink descriptions, which never carry credentials, and is scrubbed of URL userinfo once more.
import { Hono } from "hono";
import type { AsyncApiDocument } from "../asyncapi-document.ts";

export function asyncApiRoutes(document: AsyncApiDocument): Hono {
  const body = JSON.stringify(document);
  const app = new Hono();
  app.get("/asyncapi.json", (c) => c.body(body, 200, { "content-type": "application/json" }));
  return app;
}

// GET /openapi.json: the hand-written OpenAPI 3.1 document of the HTTP API. Public, like the API's shape.
import { Hono } from "hono";
import { openApiDocument } from "../openapi-document.ts";

export function openApiRoutes(): Hono {
  const body = JSON.stringify(openApiDocument);
  const app = new Hono();
  app.get("/openapi.json", (c) => c.body(body, 200, { "content-type": "application/json" }));
  return app;
}

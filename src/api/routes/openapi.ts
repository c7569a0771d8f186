// GET /openapi.json: the OpenAPI 3.1 document generated from the routes' declarations. Public, like the
// API's shape.
import { Hono } from "hono";
import { openApiDocument } from "../contract/document.ts";

export function openApiRoutes(): Hono {
  const body = JSON.stringify(openApiDocument());
  const app = new Hono();
  app.get("/openapi.json", (c) => c.body(body, 200, { "content-type": "application/json" }));
  return app;
}

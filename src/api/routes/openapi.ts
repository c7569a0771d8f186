// GET /openapi.json: the OpenAPI 3.1 document generated from the routes' declarations. Public, like the
// API's shape. Generated on the first request (about 0.1 s), not at boot.
import { Hono } from "hono";
import { openApiDocument } from "../contract/document.ts";

export function openApiRoutes(): Hono {
  let body: string | undefined;
  const app = new Hono();
  app.get("/openapi.json", (c) => {
    body ??= JSON.stringify(openApiDocument());
    return c.body(body, 200, { "content-type": "application/json" });
  });
  return app;
}

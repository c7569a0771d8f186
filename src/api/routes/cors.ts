// CORS on the JSON admin API, for the web pages of `admin.allowed_origins` only (an operator's own
// console on another origin, calling /v1 with a bearer token). With no origin configured nothing is
// mounted: no preflight is answered and no page of another origin can send JSON or read an answer.
// Credentials are never allowed: the API takes bearer tokens a page sets itself, not cookies.
import { Hono } from "hono";
import { cors } from "hono/cors";

export function corsRoutes(allowedOrigins: readonly string[]): Hono {
  const app = new Hono();
  if (allowedOrigins.length === 0) return app;
  app.use(
    "/v1/*",
    cors({
      origin: [...allowedOrigins],
      allowMethods: ["GET", "POST", "PUT", "PATCH", "DELETE"],
      allowHeaders: ["authorization", "content-type"],
      maxAge: 600,
    }),
  );
  return app;
}

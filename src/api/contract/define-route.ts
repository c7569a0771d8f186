// How a route of the HTTP API is declared, so that /openapi.json (and the client typed from it) is
// generated from the same zod schemas that validate the requests. The pattern, for a new admin route:
//
//   1. In src/api/contract/<group>.ts, declare it once:
//        export const getThing = adminRoute({
//          method: "get", path: "/v1/things/{id}", summary: "One thing",
//          request: { params: idParams("Thing id (th_…).") },
//          responses: { 200: json(Thing, "The thing.") },
//          errors: [404],
//        });
//      `Thing` is a zod schema named with `.openapi("Thing")`. A body is `request: { body: jsonBody(Schema) }`
//      and its route gets `middleware: [auth, cappedJson(maxBytes)]` (the body is read within its cap, 413
//      beyond, before zod sees it). Every admin route gets 401 and 503; a write also 403 and 415 (the
//      cross-site guard) and, with a body, 400 and 413. `errors` lists the route's own others.
//   2. List it in its group's array (LEDGER_ROUTES, …; a new group's array goes into ALL_ROUTES in
//      document.ts), which is what the document is generated from.
//   3. In src/api/routes/<group>.ts: `app.openapi({ ...getThing, middleware: [deps.auth] as const }, handler)`
//      on an `apiGroup<AdminEnv>()`; the handler returns `c.json(view, 200)`, typed against the declared
//      schema (type views as `z.infer<typeof Thing>`), and throws ApiError for every refusal (onError in
//      app.ts answers `{"error":{"code","message"}}`).
//   4. Call it in test/integration/openapi-conformance.test.ts: that test fails for a served route that is
//      not documented, a documented operation it never saw succeed, and any answer unlike the document.
//   5. `npm run openapi:write`; bump API_VERSION (document.ts) and packages/client's version together
//      (a new route: minor; a breaking change: major); commit openapi/openapi.json and the client's types.
import { type RouteConfig, createRoute, z } from "@hono/zod-openapi";
import { API_ERROR_CODES } from "../api-error.ts";

/** The one error body of every refusal. */
export const ErrorBody = z
  .object({
    error: z.object({
      code: z.enum(API_ERROR_CODES).openapi({ description: "Stable, machine-readable reason." }),
      message: z.string().openapi({ description: "For people; may change." }),
    }),
  })
  .openapi("Error");

/** An instant as the API writes it (ISO 8601, UTC). */
export const instant = z.string().openapi({ format: "date-time" });

type Schema = z.ZodType;

/** A JSON response of `schema`. */
export function json<S extends Schema>(schema: S, description: string) {
  return { description, content: { "application/json": { schema } } } as const;
}

/** A required JSON request body of `schema`. */
export function jsonBody<S extends Schema>(schema: S, required = true) {
  return { required, content: { "application/json": { schema } } } as const;
}

/** What each error status means; a route lists the ones it can answer beyond the common ones. */
const ERROR_MEANING = {
  400: "invalid_request: a field, a query parameter or the body is invalid (the message names it).",
  401: "unauthorized: no valid admin token (Authorization: Bearer <token>).",
  403: "forbidden: a write sent from a page of another origin that admin.allowed_origins does not list.",
  404: "not_found: no such id, or it belongs to a tenant the token is not bound to.",
  409: "conflict (or too_many_endpoints): the request contradicts the current state.",
  413: "payload_too_large: the body exceeds its cap (the connection is closed).",
  415: "unsupported_media_type: a write must be Content-Type: application/json, body or not.",
  429: "too_many_replays, or overloaded (with Retry-After).",
  503: "store_unavailable, shutting_down or not_ready (with Retry-After).",
} as const;
export type ErrorStatus = keyof typeof ERROR_MEANING;

/** The error answers `statuses`, each the Error body. */
export function errorResponses(
  statuses: readonly ErrorStatus[],
  meaning: Partial<Record<ErrorStatus, string>> = {},
) {
  return Object.fromEntries(
    statuses.map((s) => [s, json(ErrorBody, meaning[s] ?? ERROR_MEANING[s])]),
  ) as Record<ErrorStatus, ReturnType<typeof json<typeof ErrorBody>>>;
}

/** `{id}` as the one path parameter. */
export function idParams(description: string) {
  return z.object({ id: z.string().openapi({ param: { name: "id", in: "path" }, description }) });
}

/** A query parameter taken as the string it is; `schema` says what the route accepts of it. */
export function queryParam(description: string, schema: Record<string, unknown> = { type: "string" }) {
  return z
    .string()
    .optional()
    .openapi({ description, ...schema });
}

const WRITES = new Set(["post", "put", "patch", "delete"]);

type AdminRouteInput = Omit<RouteConfig, "tags"> & {
  /** The route's own error answers, besides the ones every admin route (or write) can give. */
  readonly errors?: readonly ErrorStatus[];
  readonly errorMeaning?: Partial<Record<ErrorStatus, string>>;
};

/** An admin API route: bearer auth, tag `admin`, and the error answers every such route can give. */
export function adminRoute<const R extends AdminRouteInput>(input: R) {
  const { errors = [], errorMeaning, ...route } = input;
  const write = WRITES.has(route.method);
  const common: ErrorStatus[] = [401, 503];
  if (write) common.push(403, 415);
  if (route.request?.body) common.push(400, 413);
  const security: RouteConfig["security"] = route.security ?? [{ bearer: [] }];
  const statuses = [...new Set([...common, ...errors])].sort((a, b) => a - b);
  return createRoute({
    ...(route as Omit<R, "errors" | "errorMeaning">),
    tags: ["admin"],
    // Bearer tokens only: basic auth is for the dashboard's browsers, never the JSON API.
    security,
    responses: { ...route.responses, ...errorResponses(statuses, errorMeaning) },
  });
}

/** A public route (health, documents, ingest): no auth, tag `operations` or `inbound`. */
export function publicRoute<const R extends Omit<RouteConfig, "tags">>(
  tag: "operations" | "inbound",
  route: R,
) {
  return createRoute({ ...route, tags: [tag] });
}

// /portal: the tenant portal's pages, its script and stylesheet, and /portal/api, where the /v1 handlers
// answer the page's script with the session as principal. Every page is rendered on the server from
// those same handlers (see portal-data.ts) and sent with a strict content security policy: scripts,
// styles and requests from the gateway only, no inline script, framed only by `portal.embed_origins`.
import { type Context, Hono } from "hono";
import type { PortalGrant, PortalSessionStore } from "../../store/portal-session-store.ts";
import { ApiError } from "../api-error.ts";
import { PORTAL_API_PATH, PORTAL_PATH, portalGrantOf } from "../portal-auth.ts";
import type { DeliveryJson, EndpointJson, Page, ReplayJson } from "../portal/api-types.ts";
import { PORTAL_ASSETS } from "../portal/assets.ts";
import { type Html, html } from "../portal/html.ts";
import { page } from "../portal/layout.ts";
import { PortalData } from "../portal/portal-data.ts";
import { type DeliveryDetailJson, deliveryDetailPage } from "../portal/views/delivery-detail.ts";
import { type DeliveryQuery, endpointDetailPage } from "../portal/views/endpoint-detail.ts";
import { type EventTypeJson, endpointFormPage } from "../portal/views/endpoint-form.ts";
import { endpointListPage } from "../portal/views/endpoint-list.ts";
import { type EventJson, eventDetailPage } from "../portal/views/event-detail.ts";
import type { HealthJson } from "../portal/views/health.ts";
import { replayDetailPage } from "../portal/views/replay-detail.ts";
import { signInPage } from "../portal/views/sign-in.ts";

export interface PortalRouteDeps {
  readonly sessions: PortalSessionStore;
  /** The /v1 handlers with the portal session as principal, answering `/portal/api/v1/…`. */
  readonly api: Hono;
  /** `/portal/session`: the sign-in exchange and sign-out (portal-sessions.ts). */
  readonly session: Hono;
  /** `portal.embed_origins`: who may frame the pages. */
  readonly embedOrigins: readonly string[];
}

/** The page's policy: nothing from elsewhere, no inline script or style, framed only where configured. */
export function portalCsp(embedOrigins: readonly string[]): string {
  const ancestors = embedOrigins.length > 0 ? embedOrigins.join(" ") : "'none'";
  return (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    `object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors ${ancestors}`
  );
}

type View = (grant: PortalGrant, data: PortalData, c: Context) => Promise<Html>;

const enc = encodeURIComponent;

/**
 * The portal is an app of its own that the API hands `/portal` and `/portal/*` to, as with Bull Board:
 * its routes merged into the API's router would put every request, ingest included, on the slower
 * trie router.
 */
export function portalRoutes(deps: PortalRouteDeps): Hono {
  const app = new Hono();
  app.route("/", deps.session);
  const csp = portalCsp(deps.embedOrigins);
  const callApi = (req: Request): Promise<Response> => Promise.resolve(deps.api.fetch(req));

  const send = (body: Html, status: 200 | 400 | 401 | 404 | 502): Response =>
    new Response(body.text, {
      status,
      headers: {
        "content-type": "text/html; charset=utf-8",
        "content-security-policy": csp,
        "cache-control": "no-store",
        "referrer-policy": "no-referrer",
        "x-content-type-options": "nosniff",
        ...(deps.embedOrigins.length === 0 ? { "x-frame-options": "DENY" } : {}),
      },
    });

  /** A page for the session's tenant; without a session, the sign-in page; an API refusal, its page. */
  const view =
    (render: View, signInStatus: 200 | 401 = 401) =>
    async (c: Context): Promise<Response> => {
      const grant = await portalGrantOf(c, deps.sessions);
      if (!grant) return send(signInPage(), signInStatus);
      try {
        return send(await render(grant, new PortalData(callApi, c.req.raw), c), 200);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        if (err.status === 401) return send(signInPage(), 401);
        const status = err.status === 404 || err.status === 400 ? err.status : 502;
        const title = { 400: "Not a valid request", 404: "Not found", 502: "Something went wrong" }[status];
        return send(
          page({
            title,
            grant,
            body: html`<p>${err.message}</p>
              <p><a href="/portal">Back to the endpoints</a></p>`,
          }),
          status,
        );
      }
    };

  app.all(`${PORTAL_API_PATH}/*`, (c) => callApi(c.req.raw));

  for (const [name, asset] of Object.entries(PORTAL_ASSETS)) {
    app.get(`${PORTAL_PATH}/${name}`, (c) => {
      const headers = {
        "content-type": asset.contentType,
        etag: asset.etag,
        "cache-control": "no-cache",
        "x-content-type-options": "nosniff",
      };
      if (c.req.header("if-none-match") === asset.etag) return new Response(null, { status: 304, headers });
      return new Response(asset.body, { headers });
    });
  }

  const health = (data: PortalData, id: string) => data.get<HealthJson>(`/v1/endpoints/${enc(id)}/stats`);

  app.get(
    PORTAL_PATH,
    view(async (grant, data) => {
      const endpoints = await data.get<Page<EndpointJson>>("/v1/endpoints?limit=100");
      const rows = await Promise.all(
        endpoints.data.map(async (endpoint) => ({ endpoint, health: await health(data, endpoint.id) })),
      );
      const replays = await data.get<Page<ReplayJson>>("/v1/replays?limit=10");
      return endpointListPage(grant, rows, replays.data);
    }, 200),
  );

  const catalog = async (data: PortalData): Promise<EventTypeJson[]> => [
    ...(await data.get<Page<EventTypeJson>>("/v1/event-types")).data,
  ];

  app.get(
    `${PORTAL_PATH}/endpoints/new`,
    view(async (grant, data) => endpointFormPage(grant, await catalog(data))),
  );

  app.get(
    `${PORTAL_PATH}/endpoints/:id/edit`,
    view(async (grant, data, c) => {
      const endpoint = await data.get<EndpointJson>(`/v1/endpoints/${enc(c.req.param("id") ?? "")}`);
      return endpointFormPage(grant, await catalog(data), endpoint);
    }),
  );

  app.get(
    `${PORTAL_PATH}/endpoints/:id`,
    view(async (grant, data, c) => {
      const id = c.req.param("id") ?? "";
      const endpoint = await data.get<EndpointJson>(`/v1/endpoints/${enc(id)}`);
      const q: DeliveryQuery = {
        ...(c.req.query("state") ? { state: c.req.query("state") } : {}),
        ...(c.req.query("since") ? { since: c.req.query("since") } : {}),
        ...(c.req.query("cursor") ? { cursor: c.req.query("cursor") } : {}),
      };
      const query = new URLSearchParams({ ...q, limit: "50" }).toString();
      const deliveries = await data.get<Page<DeliveryJson>>(`/v1/endpoints/${enc(id)}/deliveries?${query}`);
      return endpointDetailPage(grant, endpoint, await health(data, id), deliveries, q);
    }),
  );

  app.get(
    `${PORTAL_PATH}/deliveries/:id`,
    view(async (grant, data, c) =>
      deliveryDetailPage(
        grant,
        await data.get<DeliveryDetailJson>(`/v1/deliveries/${enc(c.req.param("id") ?? "")}`),
      ),
    ),
  );

  app.get(
    `${PORTAL_PATH}/events/:id`,
    view(async (grant, data, c) => {
      const id = enc(c.req.param("id") ?? "");
      const event = await data.get<EventJson>(`/v1/events/${id}`);
      return eventDetailPage(grant, event, await data.get<Page<DeliveryJson>>(`/v1/events/${id}/deliveries`));
    }),
  );

  app.get(
    `${PORTAL_PATH}/replays/:id`,
    view(async (grant, data, c) =>
      replayDetailPage(grant, await data.get<ReplayJson>(`/v1/replays/${enc(c.req.param("id") ?? "")}`)),
    ),
  );

  // Errors and unknown paths go back to the API's handler, so they are answered as everywhere else.
  app.notFound(() => {
    throw new ApiError(404, "not_found", "no such route");
  });
  app.onError((err) => {
    throw err;
  });
  const toPortal = async (c: Context): Promise<Response> => app.fetch(c.req.raw, c.env);
  return new Hono().all(PORTAL_PATH, toPortal).all(`${PORTAL_PATH}/*`, toPortal);
}

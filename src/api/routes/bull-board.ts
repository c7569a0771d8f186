// /admin/queues: Bull Board over every queue of the deployment, behind the admin tokens. Browsers get a
// basic-auth prompt (any user name, the token as password); scripts may send the bearer token. Since the
// browser replays that basic auth on requests other sites start, the board's writes (retry, clean,
// promote, …) are refused from another site's pages, and its POSTs must be JSON.
// The board is an app of its own that the API hands its paths to: some of its routes are patterns
// Hono's RegExpRouter refuses, and routes merged into the API's router would put every request,
// ingest included, on the slower trie router.
import { BullMQAdapter } from "@bull-board/api/bullMQAdapter";
import { createBullBoard } from "@bull-board/api";
import { HonoAdapter } from "@bull-board/hono";
import { serveStatic } from "@hono/node-server/serve-static";
import type { Queue } from "bullmq";
import { type Context, Hono } from "hono";
import { type AdminEnv, type TokenRegistry, requireAdmin } from "../admin-auth.ts";
import type { SitePolicy } from "../write-guard.ts";
import { ApiError } from "../api-error.ts";
import { selfContainedBoardPage } from "../bull-board-page.ts";

export const BULL_BOARD_PATH = "/admin/queues";

/** The board's page may load only from the gateway (its inline styles and data blocks included). */
const BOARD_CSP =
  "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; " +
  "base-uri 'self'; form-action 'self'; frame-ancestors 'self'";

export interface BullBoardRouteDeps {
  readonly tokens: TokenRegistry;
  /** Origins besides the gateway's own whose pages may drive the board's actions. */
  readonly sites: SitePolicy;
  /** Every queue to show: the sink queues, replays, maintenance. */
  readonly queues: readonly Queue[];
}

export function bullBoardRoutes(deps: BullBoardRouteDeps): Hono {
  const board = new HonoAdapter(serveStatic).setBasePath(BULL_BOARD_PATH);
  createBullBoard({
    queues: deps.queues.map((q) => new BullMQAdapter(q)),
    serverAdapter: board,
    options: { uiConfig: { boardTitle: "Switchyard" } },
  });

  const app = new Hono<AdminEnv>();
  const auth = requireAdmin(deps.tokens, { basicRealm: "switchyard", sites: deps.sites });
  // Queues hold every tenant's jobs, so a token bound to one tenant may not open the board.
  // (`/admin/queues/*` also matches `/admin/queues` itself.)
  app.use(`${BULL_BOARD_PATH}/*`, auth, async (c, next) => {
    if (c.get("principal").tenant !== undefined) throw new ApiError(404, "not_found", "no such route");
    await next();
  });
  // The board's own links lead to the base path without the slash; a typed-in slash should still work.
  app.get(`${BULL_BOARD_PATH}/`, (c) => c.redirect(BULL_BOARD_PATH));
  app.route(BULL_BOARD_PATH, board.registerPlugin());
  // Errors and unknown paths go back to the API's handler, so they are answered as everywhere else.
  app.notFound(() => {
    throw new ApiError(404, "not_found", "no such route");
  });
  app.onError((err) => {
    throw err;
  });
  const toBoard = async (c: Context): Promise<Response> => {
    const res = await app.fetch(c.req.raw, c.env);
    if (!res.headers.get("content-type")?.startsWith("text/html")) return res;
    // The page itself: served self-contained (see bull-board-page.ts), with the browser held to it.
    const headers = new Headers(res.headers);
    headers.delete("content-length");
    headers.set("content-security-policy", BOARD_CSP);
    return new Response(selfContainedBoardPage(await res.text()), { status: res.status, headers });
  };
  return new Hono().all(BULL_BOARD_PATH, toBoard).all(`${BULL_BOARD_PATH}/*`, toBoard);
}

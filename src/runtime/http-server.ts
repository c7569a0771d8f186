// The Node HTTP server behind the API, with bounds a slow or hostile client cannot stretch: request and
// header timeouts, a connection cap, and a drain that closes idle connections at once and cuts the rest
// at the shutdown deadline.
import type { Server, ServerOptions } from "node:http";
import { type AddressInfo, Server as NetServer } from "node:net";
import { serve } from "@hono/node-server";
import type { Hono } from "hono";
import type { Config } from "../config/schema.ts";

type HttpConfig = Config["http"];

/** Keep-alive connections whose response finishes during the drain are closed this soon after. */
const REAP_IDLE_EVERY_MS = 100;

export function nodeServerOptions(http: HttpConfig): ServerOptions {
  return {
    requestTimeout: http.request_timeout_ms,
    headersTimeout: http.headers_timeout_ms,
    // Node checks both timeouts only this often (every 30 s by default), which stretches each by as much.
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(http.headers_timeout_ms / 2))),
  };
}

/** Listen on `http.host:http.port`; resolves with the server and the bound port. */
export async function listenHttp(app: Hono, http: HttpConfig): Promise<{ server: Server; port: number }> {
  const server = serve({
    fetch: app.fetch,
    port: http.port,
    hostname: http.host,
    serverOptions: nodeServerOptions(http),
  }) as Server;
  server.maxConnections = http.max_connections;
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  return { server, port: (server.address() as AddressInfo).port };
}

/**
 * Stop accepting, close idle connections now and as they become idle, and destroy whatever is still
 * open when `deadline` aborts. Resolves once every connection is gone.
 */
export function drainHttp(server: Server, deadline: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const cutAll = (): void => server.closeAllConnections();
    const reaper = setInterval(() => server.closeIdleConnections(), REAP_IDLE_EVERY_MS);
    // http.Server#close also stops Node's request and header timeout checks, after which a client that
    // stalls mid-request would hold the drain until the deadline. So stop listening at the net level,
    // and run http's own close (which ends those checks) once the last connection is gone.
    NetServer.prototype.close.call(server, () => {
      clearInterval(reaper);
      deadline.removeEventListener("abort", cutAll);
      server.close();
      resolve();
    });
    server.closeIdleConnections();
    if (deadline.aborted) cutAll();
    else deadline.addEventListener("abort", cutAll, { once: true });
  });
}

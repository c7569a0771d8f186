// Helpers shared by the admin API and replay tests: authenticated calls through the app (no socket)
// and a quick way to fill the DLQ with real dead deliveries (dead delivery rows).
import { sendHook } from "../support/hooks.ts";
import { dlqCount } from "../support/ledger.ts";
import { ADMIN_TOKEN, type TestGateway, eventually } from "../support/test-gateway.ts";

export interface AdminAnswer {
  readonly status: number;
  readonly json: any;
}

/**
 * Call the admin API with a bearer token (the global one by default; `null` sends none), as the CLI does:
 * every write declares JSON, body or not.
 */
export async function admin(
  gw: TestGateway,
  method: string,
  path: string,
  opts: { body?: unknown; token?: string | null } = {},
): Promise<AdminAnswer> {
  const headers: Record<string, string> = {};
  const token = opts.token === undefined ? ADMIN_TOKEN : opts.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (opts.body !== undefined || !["GET", "HEAD"].includes(method))
    headers["content-type"] = "application/json";
  const app = gw.gateway.app;
  if (!app) throw new Error("the gateway has no API role");
  const res = await app.request(path, {
    method,
    headers,
    ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, json: text.length > 0 ? JSON.parse(text) : undefined };
}

/** Number of entries in the DLQ. */
export function dlqSize(gw: TestGateway): Promise<number> {
  return dlqCount(gw.redis, gw.gateway.keys);
}

/**
 * Send `n` hooks to `source` (whose sink must refuse them permanently) and wait until all are dead.
 * Bodies are unique so body-hash dedup keeps every one. Returns the hook ids in send order.
 */
export async function deadHooks(
  gw: TestGateway,
  source: string,
  n: number,
  expectDead = n,
  timeoutMs = 30_000,
): Promise<string[]> {
  const before = await dlqSize(gw);
  const ids: string[] = [];
  for (let i = 0; i < n; i += 50) {
    const batch = Array.from({ length: Math.min(50, n - i) }, (_, j) =>
      sendHook(gw, source, JSON.stringify({ n: i + j, source, nonce: Math.random() })),
    );
    ids.push(...(await Promise.all(batch)));
  }
  await eventually(
    async () => (await dlqSize(gw)) >= before + expectDead,
    timeoutMs,
    `${expectDead} dead deliveries`,
  );
  return ids;
}

/** Wait until a replay reaches `state`, and return it. */
export function replayState(gw: TestGateway, id: string, state: string, timeoutMs = 30_000): Promise<any> {
  return eventually(
    async () => {
      const r = await admin(gw, "GET", `/v1/replays/${id}`);
      return r.json?.state === state ? r.json : undefined;
    },
    timeoutMs,
    `replay ${id} to be ${state}`,
  );
}

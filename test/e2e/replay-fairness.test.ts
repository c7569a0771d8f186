// One tenant must not starve another's replays: a tenant's live replays are capped (429
// too_many_replays past replays.max_per_tenant), and a replay waiting for its rate, or past its turn,
// hands its runner back. On a running gateway (real port) with the default four replay runners.
import { afterEach, expect, it } from "vitest";
import { deadHooks } from "../integration/admin-fixtures.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";
import { type TestGateway, eventually, startTestGateway, testConfig } from "../support/test-gateway.ts";

const A_TOKEN = "tenant-a-token-0123456789";
const B_TOKEN = "tenant-b-token-0123456789";
const CAP = 5;
const FLOOD = 12;
const PER_REPLAY = 30;
/** How soon tenant b's replay must have moved something, with tenant a's replays all at work. */
const PROGRESS_BOUND_MS = 10_000;

let gw: TestGateway | undefined;
let rx: Receiver | undefined;
afterEach(async () => {
  await gw?.stop();
  await rx?.close();
});

async function call(method: string, path: string, token: string, body?: unknown) {
  const res = await fetch(`${gw!.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, json: (await res.json()) as any };
}

it("replay-starved-by-another-tenant: a tenant flooding slow replays does not hold back another tenant's", async () => {
  rx = await startReceiver({ fallback: 400 });
  gw = await startTestGateway(
    testConfig({
      admin: {
        tokens: [
          { token: A_TOKEN, tenant: "a" },
          { token: B_TOKEN, tenant: "b" },
        ],
      },
      replays: { max_per_tenant: CAP },
      sinks: { out: { type: "http", url: `${rx.url}/in` } },
      sources: { src: { tenants: ["a", "b"], verify: { type: "none" }, sinks: ["out"] } },
    }),
  );
  const aHooks = await deadHooks(gw, "a/src", FLOOD * PER_REPLAY, FLOOD * PER_REPLAY, 60_000);
  const [bHook] = await deadHooks(gw, "b/src", 1, 1);

  // Tenant a asks for FLOOD slow replays, each of its own 30 entries at 1 a second (30 s each).
  const statuses: number[] = [];
  const codes: string[] = [];
  for (let i = 0; i < FLOOD; i++) {
    const ids = aHooks.slice(i * PER_REPLAY, (i + 1) * PER_REPLAY);
    const res = await call("POST", "/v1/replays", A_TOKEN, { filter: { ids }, rate_per_s: 1 });
    statuses.push(res.status);
    if (res.status !== 202) codes.push(res.json.error?.code);
  }
  // Let a's replays take every runner before b asks.
  await new Promise((r) => setTimeout(r, 1500));
  const started = Date.now();
  const b = await call("POST", "/v1/replays", B_TOKEN, { filter: { ids: [bHook] }, rate_per_s: 1 });
  expect(b.status).toBe(202);
  await eventually(
    async () => ((await call("GET", `/v1/replays/${b.json.id}`, B_TOKEN)).json.matched as number) >= 1,
    PROGRESS_BOUND_MS,
    "tenant b's replay to make progress",
  );
  const waitedMs = Date.now() - started;
  expect(waitedMs).toBeLessThan(PROGRESS_BOUND_MS);

  // a was held to its cap, with a clear code, and its replays are still running.
  expect(statuses.filter((s) => s === 202)).toHaveLength(CAP);
  expect(codes).toEqual(Array.from({ length: FLOOD - CAP }, () => "too_many_replays"));
  const running = await call("GET", "/v1/replays?state=running", A_TOKEN);
  expect(running.json.data).toHaveLength(CAP);
  // Cancelling one frees a place under the cap.
  await call("PATCH", `/v1/replays/${running.json.data[0].id}`, A_TOKEN, { state: "cancelled" });
  const again = await call("POST", "/v1/replays", A_TOKEN, { filter: { ids: aHooks.slice(0, 1) } });
  expect(again.status).toBe(202);
}, 120_000);

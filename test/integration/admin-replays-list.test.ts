// GET /v1/replays: newest first, by state, in pages; a tenant-bound token sees its own; a replay whose
// record expired leaves the list (and its index). An API-only gateway: no runner moves anything, so
// every replay stays in the state the test gives it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, type TestGateway, startTestGateway, testConfig } from "../support/test-gateway.ts";
import { admin } from "./admin-fixtures.ts";

const ACME_TOKEN = "acme-admin-token-0123456789";
let gw: TestGateway;
const ids: string[] = [];

beforeAll(async () => {
  gw = await startTestGateway(
    testConfig({
      admin: { tokens: [ADMIN_TOKEN, { token: ACME_TOKEN, tenant: "acme" }] },
      sinks: { out: { type: "http", url: "http://127.0.0.1:9/in" } },
      sources: { src: { verify: { type: "none" }, sinks: ["out"] } },
    }),
    { roles: ["api"] },
  );
  for (const token of [ADMIN_TOKEN, ACME_TOKEN, ADMIN_TOKEN, ADMIN_TOKEN]) {
    const res = await admin(gw, "POST", "/v1/replays", { body: { filter: { source: "src" } }, token });
    expect(res.status).toBe(202);
    ids.push(res.json.id);
  }
  await admin(gw, "PATCH", `/v1/replays/${ids[2]}`, { body: { state: "paused" } });
  await admin(gw, "PATCH", `/v1/replays/${ids[3]}`, { body: { state: "cancelled" } });
});

afterAll(async () => {
  await gw.stop();
});

const list = async (query = "", token?: string) => {
  const res = await admin(gw, "GET", `/v1/replays${query}`, token === undefined ? {} : { token });
  expect(res.status).toBe(200);
  return res.json as { data: { id: string; state: string; tenant?: string }[]; next_cursor: string | null };
};

describe("GET /v1/replays", () => {
  it("lists every replay newest first with its state", async () => {
    const page = await list();
    expect(page.data.map((r) => [r.id, r.state])).toEqual([
      [ids[3], "cancelled"],
      [ids[2], "paused"],
      [ids[1], "running"],
      [ids[0], "running"],
    ]);
    expect(page.next_cursor).toBeNull();
  });

  it("filters by state and pages with limit and cursor", async () => {
    expect((await list("?state=running")).data.map((r) => r.id)).toEqual([ids[1], ids[0]]);
    const first = await list("?limit=3");
    expect(first.data.map((r) => r.id)).toEqual([ids[3], ids[2], ids[1]]);
    expect(first.next_cursor).toBe(ids[1]);
    const second = await list(`?limit=3&cursor=${first.next_cursor}`);
    expect(second.data.map((r) => r.id)).toEqual([ids[0]]);
    expect(second.next_cursor).toBeNull();
  });

  it("shows a tenant-bound token only its tenant's replays", async () => {
    expect((await list("", ACME_TOKEN)).data.map((r) => [r.id, r.tenant])).toEqual([[ids[1], "acme"]]);
  });

  it("refuses a bad state, limit or cursor, and a missing token", async () => {
    for (const query of ["?state=stuck", "?limit=0", "?limit=5000", "?cursor=hk_nope"]) {
      const res = await admin(gw, "GET", `/v1/replays${query}`);
      expect(res.status, query).toBe(400);
      expect(res.json.error.code).toBe("invalid_request");
    }
    expect((await admin(gw, "GET", "/v1/replays", { token: null })).status).toBe(401);
  });

  it("drops a replay whose record expired, from the answer and from the index", async () => {
    const keys = gw.gateway.keys;
    await gw.redis.del(keys.replay(ids[0]!));
    expect((await list()).data.map((r) => r.id)).toEqual([ids[3], ids[2], ids[1]]);
    expect(await gw.redis.zrange(keys.replayIndex, 0, -1)).toEqual([ids[1], ids[2], ids[3]].sort());
    // Creating a replay sweeps the index too.
    await gw.redis.del(keys.replay(ids[1]!));
    const res = await admin(gw, "POST", "/v1/replays", { body: { filter: { source: "src" } } });
    expect(await gw.redis.zrange(keys.replayIndex, 0, -1)).toEqual([ids[2], ids[3], res.json.id].sort());
  });
});

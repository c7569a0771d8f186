// GET /v1/dlq and DELETE /v1/dlq/:id: filters, newest-first order, cursor paging without duplicates
// or gaps (ties on dead_at included), bounded work on sparse filters, limit validation, purge.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DlqEntry } from "../../src/domain/dlq.ts";
import type { ErrorClass } from "../../src/domain/error-class.ts";
import { sinkDeliveryId } from "../../src/domain/hook.ts";
import { type HookId, newId } from "../../src/domain/ids.ts";
import { type DeadSeed, ledgerStores, seedDead, unseed } from "../support/ledger.ts";
import { isQueued, onLedgerEngine } from "../support/queued.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";
import { type TestGateway, startTestGateway, testConfig } from "../support/test-gateway.ts";
import { admin, deadHooks } from "./admin-fixtures.ts";

const BASE = Date.parse("2030-01-01T00:00:00.000Z");
const SOURCES = ["alpha", "beta", "gamma"];
const SINKS = ["s1", "s2"];
const CLASSES: ErrorClass[] = ["permanent", "throttled", "transient"];

let rx: Receiver;
let gw: TestGateway;
let stores: ReturnType<typeof ledgerStores>;
const seeded: DlqEntry[] = [];

function entry(i: number, over: Partial<DeadSeed> = {}): DeadSeed {
  // Seven entries share each millisecond, so paging must get ties right.
  return {
    source: SOURCES[i % 3] as string,
    tenant: i % 5 === 0 ? "acme" : undefined,
    sink: SINKS[i % 2] as string,
    error_class: CLASSES[i % 3 === 0 ? 0 : i % 2 === 0 ? 1 : 2] as ErrorClass,
    reason: `reason ${i}`,
    dead_at: BASE + Math.floor(i / 7),
    ...over,
  };
}

/** Newest first, ties by id descending: the order Redis gives equal scores in ZREVRANGEBYSCORE. */
const newestFirst = (a: DlqEntry, b: DlqEntry): number =>
  b.dead_at - a.dead_at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

async function pageThrough(query: string, limit: number): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const sep = query ? "&" : "";
    const res = await admin(
      gw,
      "GET",
      `/v1/dlq?${query}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`,
    );
    expect(res.status).toBe(200);
    expect(res.json.data.length).toBeLessThanOrEqual(limit);
    ids.push(...res.json.data.map((e: { id: string }) => e.id));
    cursor = res.json.next_cursor;
    pages += 1;
    if (pages > 1000) throw new Error("paging does not end");
  } while (cursor);
  return { ids, pages };
}

beforeAll(async () => {
  rx = await startReceiver({ fallback: 410 });
  gw = await startTestGateway(
    testConfig({
      sinks: { s1: { type: "http", url: `${rx.url}/in` }, s2: { type: "http", url: `${rx.url}/in` } },
      sources: { live: { verify: { type: "none" }, sinks: ["s1"] } },
    }),
  );
  stores = ledgerStores(gw.redis, gw.gateway.keys, { retentionS: 3600 });
  seeded.push(...(await Promise.all(Array.from({ length: 300 }, (_, i) => seedDead(stores, entry(i))))));
});

afterAll(async () => {
  await gw.stop();
  await rx.close();
});

describe("GET /v1/dlq", () => {
  it("lists newest first, with ISO times and never a body", async () => {
    const res = await admin(gw, "GET", "/v1/dlq?limit=5");
    const expected = [...seeded].sort(newestFirst).slice(0, 5);
    expect(res.json.data.map((e: DlqEntry) => e.id)).toEqual(expected.map((e) => e.id));
    const first = res.json.data[0];
    expect(first.dead_at).toBe(new Date(expected[0]!.dead_at).toISOString());
    expect(Object.keys(first)).not.toContain("body");
    expect(Object.keys(first)).not.toContain("body_base64");
    expect(typeof res.json.next_cursor).toBe("string");
  });

  it("defaults to 100 entries a page", async () => {
    expect((await admin(gw, "GET", "/v1/dlq")).json.data).toHaveLength(100);
  });

  it.each([
    ["source=beta", (e: DlqEntry) => e.source === "beta"],
    ["sink=s2", (e: DlqEntry) => e.sink === "s2"],
    ["error_class=throttled", (e: DlqEntry) => e.error_class === "throttled"],
    [
      "source=alpha&error_class=permanent&sink=s1",
      (e: DlqEntry) => e.source === "alpha" && e.error_class === "permanent" && e.sink === "s1",
    ],
    [
      `since=${BASE + 10}&until=${new Date(BASE + 20).toISOString()}`,
      (e: DlqEntry) => e.dead_at >= BASE + 10 && e.dead_at < BASE + 20,
    ],
    [
      `source=gamma&since=${new Date(BASE + 30).toISOString()}`,
      (e: DlqEntry) => e.source === "gamma" && e.dead_at >= BASE + 30,
    ],
  ])("filters by %s, paging with a cursor without duplicates or gaps", async (query, keep) => {
    const expected = seeded
      .filter(keep)
      .sort(newestFirst)
      .map((e) => e.id);
    expect(expected.length).toBeGreaterThan(0);
    const { ids, pages } = await pageThrough(query, 7);
    expect(ids).toEqual(expected);
    expect(new Set(ids).size).toBe(ids.length);
    expect(pages).toBeGreaterThanOrEqual(Math.ceil(expected.length / 7));
  });

  it("pages through everything, ties on dead_at included", async () => {
    const { ids } = await pageThrough("", 13);
    expect(ids).toEqual([...seeded].sort(newestFirst).map((e) => e.id));
  });

  it("bounds the work of a sparse filter: short pages with a cursor, until the match is found", async () => {
    // One old match under 3000 newer entries that each pass one half of the filter but not the other,
    // so whichever index is walked, the match is 1500 entries deep.
    const rare = await seedDead(
      stores,
      entry(0, { source: "rare", sink: "s1", error_class: "transient", dead_at: BASE - 10_000 }),
    );
    const noise = await Promise.all(
      Array.from({ length: 3000 }, (_, i) =>
        seedDead(
          stores,
          entry(i, {
            source: "noisy",
            ...(i % 2 ? { sink: "s1", error_class: "permanent" } : { sink: "s2", error_class: "transient" }),
            dead_at: BASE - 5000 + i,
          }),
        ),
      ),
    );
    try {
      const query = `sink=s1&error_class=transient&until=${BASE - 1}`;
      const first = await admin(gw, "GET", `/v1/dlq?${query}&limit=10`);
      expect(first.json.data).toEqual([]);
      expect(first.json.next_cursor).toEqual(expect.any(String));
      const { ids, pages } = await pageThrough(query, 10);
      expect(ids).toEqual([rare.id]);
      expect(pages).toBeGreaterThan(1);
    } finally {
      await Promise.all([rare, ...noise].map((e) => unseed(stores, e.id)));
    }
  });

  it.each([
    "limit=0",
    "limit=1001",
    "limit=-1",
    "limit=abc",
    "limit=1.5",
    "since=yesterday",
    "until=2030-13-45T00:00:00Z",
    "error_class=fatal",
    "source=a:b",
    "cursor=not-a-cursor",
  ])("rejects %s with 400 invalid_request", async (query) => {
    const res = await admin(gw, "GET", `/v1/dlq?${query}`);
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("invalid_request");
  });

  it("accepts limit=1000", async () => {
    const res = await admin(gw, "GET", "/v1/dlq?limit=1000");
    expect(res.status).toBe(200);
    expect(res.json.data).toHaveLength(300);
    expect(res.json.next_cursor).toBeNull();
  });
});

describe("DELETE /v1/dlq/:id", () => {
  it("accepts the <hook id>-<sink> form of a DLQ id", async () => {
    const [hook] = (await deadHooks(gw, "live", 1)) as [string];
    expect((await admin(gw, "DELETE", `/v1/dlq/${hook}-s1`)).status).toBe(204);
    expect(await stores.dlq.get(sinkDeliveryId(hook as HookId, "s1"))).toBeUndefined();
  });

  it("purges the entry (and on BullMQ its failed job); a second delete is a 404", async () => {
    const [hook] = (await deadHooks(gw, "live", 1)) as [string];
    const id = sinkDeliveryId(hook as HookId, "s1");
    // BullMQ keeps a dead delivery's job in the failed set, which the purge must remove too; the ledger
    // engine keeps no job and no queue entry for it, only its row and DLQ indexes.
    const job = `${gw.gateway.keys.queuePrefix("sink-s1")}:sink-s1:${id}`;
    const ledger = onLedgerEngine(gw);
    expect(await gw.redis.exists(job)).toBe(ledger ? 0 : 1);
    const res = await admin(gw, "DELETE", `/v1/dlq/${id}`);
    expect(res.status).toBe(204);
    expect(await gw.redis.exists(job)).toBe(0);
    expect(await isQueued(gw, { kind: "sink", name: "s1" }, id)).toBe(false);
    expect(await stores.dlq.get(id)).toBeUndefined();
    // The delivery itself stays dead; only its DLQ listing went.
    expect((await stores.ledger.get(id))?.state).toBe("dead");
    expect((await admin(gw, "GET", "/v1/dlq?source=live")).json.data).toEqual([]);
    expect((await admin(gw, "DELETE", `/v1/dlq/${id}`)).status).toBe(404);
    expect((await admin(gw, "DELETE", "/v1/dlq/junk")).status).toBe(404);
    expect((await admin(gw, "DELETE", `/v1/dlq/${newId("hk")}-s1`)).status).toBe(404);
    expect((await admin(gw, "DELETE", `/v1/dlq/${newId("dl")}`)).status).toBe(404);
  });
});

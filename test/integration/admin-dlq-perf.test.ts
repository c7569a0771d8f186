// A DLQ page costs O(page), not O(DLQ): over 100,000 dead entries, `GET /v1/dlq?limit=100` is far
// faster than listing everything. (bench/scenarios/dlq-list/main.ts measures the same over dead rows the ledger made.)
import { afterAll, beforeAll, expect, it } from "vitest";
import { pipeDeadRow } from "../support/ledger.ts";
import { type TestGateway, startTestGateway, testConfig } from "../support/test-gateway.ts";
import { admin } from "./admin-fixtures.ts";

const N = 100_000;
let gw: TestGateway;

beforeAll(async () => {
  gw = await startTestGateway(
    testConfig({
      sinks: { out: { type: "log" } },
      sources: { src: { verify: { type: "none" }, sinks: ["out"], allow_non_durable: true } },
    }),
    { roles: ["api"] },
  );
  // Seeded with one raw pipeline (dead rows + the unfiltered index) to keep the test quick.
  const keys = gw.gateway.keys;
  const now = Date.now();
  for (let i = 0; i < N; i += 10_000) {
    const pipe = gw.redis.pipeline();
    for (let j = i; j < i + 10_000; j++)
      pipeDeadRow(pipe, keys, {
        sink: "out",
        source: "src",
        dead_at: now - (N - j) * 10,
        reason: "HTTP 503",
      });
    await pipe.exec();
  }
}, 120_000);

afterAll(async () => {
  await gw.stop();
}, 60_000);

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

it("answers a 100-entry page over 100,000 entries far faster than the full listing", async () => {
  const pageTimes: number[] = [];
  for (let i = 0; i < 11; i++) {
    const t = performance.now();
    const res = await admin(gw, "GET", "/v1/dlq?limit=100");
    pageTimes.push(performance.now() - t);
    expect(res.json.data).toHaveLength(100);
  }
  const t = performance.now();
  let seen = 0;
  let cursor: string | null = null;
  do {
    const res = await admin(gw, "GET", `/v1/dlq?limit=1000${cursor ? `&cursor=${cursor}` : ""}`);
    seen += res.json.data.length;
    cursor = res.json.next_cursor;
  } while (cursor);
  const full = performance.now() - t;
  expect(seen).toBe(N);
  const page = median(pageTimes);
  // Measured ≈ 250×; 20× leaves room for a noisy shared machine while still failing an O(N) page.
  expect(full / page).toBeGreaterThan(20);
}, 120_000);

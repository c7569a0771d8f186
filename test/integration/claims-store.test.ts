// The claim check: a large hook going to two queue sinks is stored once in Redis (what queues its
// deliveries, BullMQ jobs or ledger queue entries, carries ids only), and GET /v1/claims/:id hands the exact bytes back, to admins of the hook's tenant only.
import { createHash, randomBytes } from "node:crypto";
import { afterEach, expect, it } from "vitest";
import { sinkDeliveryId } from "../../src/domain/hook.ts";
import type { HookId } from "../../src/domain/ids.ts";
import { queuedEntriesOf, queuedKeysOf } from "../support/ingest-cluster-helpers.ts";
import { ADMIN_TOKEN, type TestGateway, startTestGateway, testConfig } from "../support/test-gateway.ts";

const MiB = 1024 * 1024;
const ACME_TOKEN = "acme-claims-token-0123456789";
const OTHER_TOKEN = "other-claims-token-0123456789";

let gw: TestGateway | undefined;
afterEach(async () => {
  await gw?.stop();
  gw = undefined;
});

/** used_memory of the whole server, in bytes. */
async function usedMemory(gateway: TestGateway): Promise<number> {
  const info = await gateway.redis.info("memory");
  return Number(/^used_memory:(\d+)/m.exec(info)?.[1]);
}

/** MEMORY USAGE summed over every key under the test's prefix. */
async function prefixMemory(gateway: TestGateway): Promise<{ total: number; keys: Map<string, number> }> {
  const keys = new Map<string, number>();
  let cursor = "0";
  do {
    const [next, batch] = await gateway.redis.scan(
      cursor,
      "MATCH",
      `{${gateway.config.redis.prefix}[:}]*`,
      "COUNT",
      1000,
    );
    cursor = next;
    for (const key of batch)
      keys.set(key, Number(await gateway.redis.call("MEMORY", "USAGE", key, "SAMPLES", "0")));
  } while (cursor !== "0");
  return { total: [...keys.values()].reduce((a, b) => a + b, 0), keys };
}

it("stores a 5 MiB hook for two queue sinks once, and serves its exact bytes to its tenant's admins", async () => {
  const config = testConfig({
    http: { max_body_bytes: 8 * MiB },
    admin: {
      tokens: [ADMIN_TOKEN, { token: ACME_TOKEN, tenant: "acme" }, { token: OTHER_TOKEN, tenant: "other" }],
    },
    // Queue sinks (claim check above 64 KiB); only the API runs, so nothing connects to a broker.
    sinks: {
      bus: { type: "amqp", url: "amqp://guest:guest@127.0.0.1:5672", exchange: "hooks" },
      stream: { type: "kafka", brokers: ["127.0.0.1:9092"], topic: "hooks" },
    },
    sources: { big: { tenant: "acme", verify: { type: "none" }, sinks: ["bus", "stream"] } },
  });
  gw = await startTestGateway(config, { roles: ["api"], listen: false });
  const app = gw.gateway.app!;
  const body = randomBytes(5 * MiB);

  // Server-wide used_memory is a rough figure: the first large write on a connection also grows that
  // connection's query buffer by the argument's size (Redis shrinks it only when the client idles), and
  // other test files write to the same Redis. So take the best of up to three hooks; the per-key sum
  // below is the exact check.
  const deltas: number[] = [];
  let id = "";
  for (let i = 0; i < 3 && (deltas.length === 0 || Math.min(...deltas) >= 2 * body.length); i++) {
    const copy = Buffer.from(body);
    copy.writeUInt32BE(i, 0); // a distinct body each round, so dedup does not answer "duplicate"
    const before = await usedMemory(gw);
    const res = await app.request("/webhooks/big", {
      method: "POST",
      body: copy,
      headers: { "content-type": "application/pdf" },
    });
    expect(res.status).toBe(202);
    const accepted = (await res.json()) as { id: string };
    deltas.push((await usedMemory(gw)) - before);
    if (i === 0) id = accepted.id;
  }
  expect(Math.min(...deltas)).toBeLessThan(2 * body.length);
  console.log(
    `INFO used_memory delta per 5 MiB hook: ${deltas.map((d) => (d / MiB).toFixed(2)).join(", ")} MiB`,
  );

  // Exactly: the record holds the body once, the two deliveries' queue keys hold ids only. (jemalloc rounds a 5 MiB
  // allocation up to its 6 MiB size class, hence 1.25×; a second copy would be 2×.)
  const hookKey = gw.gateway.keys.hook(id as HookId);
  const { total, keys } = await prefixMemory(gw);
  const hookBytes = keys.get(hookKey)!;
  expect(hookBytes).toBeGreaterThanOrEqual(body.length);
  expect(hookBytes).toBeLessThan(1.25 * body.length);
  expect(total).toBeLessThan(deltas.length * 1.25 * body.length);
  for (const sink of ["bus", "stream"]) {
    const delivery = sinkDeliveryId(id as HookId, sink);
    // Its BullMQ job, or its ledger queue's ready list and members set (those hold every round's hook).
    for (const key of queuedKeysOf(gw, { kind: "sink", name: sink }, delivery))
      expect(keys.get(key), key).toBeLessThan(4096);
    expect(keys.get(gw.gateway.keys.delivery(delivery))).toBeLessThan(1024);
    expect(await queuedEntriesOf(gw, id, sink)).toEqual([{ id: delivery, data: { p: id } }]);
  }
  console.log(
    `MEMORY USAGE hook key: ${(hookBytes / MiB).toFixed(3)} MiB; prefix total: ${(total / MiB).toFixed(3)} MiB`,
  );

  // The claim returns the very bytes, their content type and sha256.
  const original = Buffer.from(body);
  original.writeUInt32BE(0, 0);
  const claim = await app.request(`/v1/claims/${id}`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  expect(claim.status).toBe(200);
  expect(claim.headers.get("content-type")).toBe("application/octet-stream");
  const fetched = Buffer.from(await claim.arrayBuffer());
  expect(fetched.equals(original)).toBe(true);
  expect(claim.headers.get("x-switchyard-sha256")).toBe(createHash("sha256").update(original).digest("hex"));

  // The hook's tenant sees it; another tenant's token, a missing token and junk ids do not.
  const as = (token: string, path = `/v1/claims/${id}`) =>
    app.request(path, { headers: { authorization: `Bearer ${token}` } });
  expect((await as(ACME_TOKEN)).status).toBe(200);
  const other = await as(OTHER_TOKEN);
  expect(other.status).toBe(404);
  expect(await other.json()).toEqual({ error: { code: "not_found", message: "no such claim" } });
  expect((await app.request(`/v1/claims/${id}`)).status).toBe(401);
  expect((await as(ADMIN_TOKEN, "/v1/claims/hk_00000000000000000000000000")).status).toBe(404);
  expect((await as(ADMIN_TOKEN, "/v1/claims/..%2F..%2Fsecret")).status).toBe(404);
});

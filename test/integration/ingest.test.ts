// Ingest on real Redis: what exists after each answer of the README's ingest table.
import { connect } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";
import { sinkDeliveryId } from "../../src/domain/hook.ts";
import type { HookId } from "../../src/domain/ids.ts";
import { sinkQueueName } from "../../src/queue/delivery-job.ts";
import { sinkState } from "../support/hooks.ts";
import { type QueuedEntry, queuedEntries, queuedEntriesOf } from "../support/ingest-cluster-helpers.ts";
import { type TestGateway, startTestGateway, testConfig } from "../support/test-gateway.ts";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

function config(extra: Record<string, unknown> = {}) {
  return testConfig({
    sinks: {
      a: { type: "http", url: "http://127.0.0.1:9/a" },
      b: { type: "http", url: "http://127.0.0.1:9/b" },
    },
    sources: {
      open: { verify: { type: "none" }, sinks: ["a", "b"], dedup: "body", tenants: ["acme", "t1", "t2"] },
      signed: {
        verify: { type: "standard_webhooks", secrets: [SECRET] },
        sinks: ["a"],
        dedup: "standard_webhooks",
      },
      ...extra,
    },
  });
}

let gw: TestGateway | undefined;
afterEach(async () => {
  await gw?.stop();
  gw = undefined;
});

async function post(path: string, body: string | Buffer, headers: Record<string, string> = {}) {
  const res = await fetch(`${gw!.url}${path}`, { method: "POST", body, headers });
  return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, any> };
}

async function hookKeys(g: TestGateway): Promise<string[]> {
  return g.redis.keys(`{${g.config.redis.prefix}:*}:hook:*`);
}

/** Deliveries waiting on a sink's one queue: BullMQ jobs or ledger queue entries, per the engine. */
const queuedTo = (g: TestGateway, sink: string): Promise<QueuedEntry[]> =>
  queuedEntries(g, sinkQueueName(sink));

/** The hook's delivery to `sink` as its queue holds it, if it is queued; fails if it is queued twice. */
async function queuedOf(g: TestGateway, id: string, sink: string): Promise<QueuedEntry | undefined> {
  const entries = await queuedEntriesOf(g, id, sink);
  expect(entries.length).toBeLessThanOrEqual(1);
  return entries[0];
}

describe("POST /webhooks/:source", () => {
  it("answers 202 only with the record and one queued delivery per sink in Redis", async () => {
    gw = await startTestGateway(config(), { roles: ["api"] });
    const body = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x31, 0x7d, 0xff, 0x00]); // not valid UTF-8
    const res = await post("/webhooks/open", body, { "content-type": "application/json", "x-extra": "kept" });
    expect(res.status).toBe(202);
    expect(res.json.status).toBe("accepted");
    const id = res.json.id as string;
    expect(id).toMatch(/^hk_[0-9a-z]{26}$/);

    const record = await gw.redis.hgetallBuffer(gw.gateway.keys.hook(id as HookId));
    expect(record.body?.equals(body)).toBe(true);
    expect(JSON.parse(record.meta!.toString())).toMatchObject({ source: "open", sinks: ["a", "b"] });
    const headers = JSON.parse(record.hdr!.toString()) as Record<string, string>;
    expect(headers["x-extra"]).toBe("kept");
    expect(headers.connection).toBeUndefined();
    // Live deliveries keep their record: nothing expires until every one of them has ended.
    expect(Number(await gw.redis.ttl(gw.gateway.keys.hook(id as HookId)))).toBe(-1);
    expect(record.live?.toString()).toBe("2");
    for (const sink of ["a", "b"]) {
      const row = await sinkState(gw, id, sink);
      expect(row).toMatchObject({ state: "pending", attempts: 0 });
      expect(await queuedOf(gw, id, sink)).toEqual({
        id: sinkDeliveryId(id as HookId, sink),
        data: { p: id },
      });
    }
  });

  it("takes the tenant from the path", async () => {
    gw = await startTestGateway(config(), { roles: ["api"] });
    const res = await post("/webhooks/acme/open", "{}");
    expect(res.status).toBe(202);
    const meta = await gw.redis.hget(gw.gateway.keys.hook(res.json.id as HookId), "meta");
    expect(JSON.parse(meta!).tenant).toBe("acme");
  });

  it("answers a duplicate 200 with the first id and enqueues nothing again", async () => {
    gw = await startTestGateway(config(), { roles: ["api"] });
    const first = await post("/webhooks/open", '{"n":1}');
    const again = await post("/webhooks/open", '{"n":1}');
    expect(again.status).toBe(200);
    expect(again.json).toEqual({ status: "duplicate", id: first.json.id });
    expect(await queuedTo(gw, "a")).toHaveLength(1);
    expect(await hookKeys(gw)).toHaveLength(1);
  });

  it("a duplicate of a hook whose first request died before enqueueing finishes the enqueue", async () => {
    gw = await startTestGateway(config(), { roles: ["api"] });
    const keys = gw.gateway.keys;
    const redis = gw.redis;
    const { HookStore } = await import("../../src/store/hook-store.ts");
    const { DeliveryStore } = await import("../../src/store/delivery-store.ts");
    const { newId, bucketFor } = await import("../../src/domain/ids.ts");
    const { idempotencyKey } = await import("../../src/domain/hook.ts");
    const { computeDedupKey } = await import("../../src/ingest/dedup-key.ts");
    const body = Buffer.from('{"crash":"between persist and enqueue"}');
    const dedupKey = computeDedupKey("body", {}, body);
    const identity = idempotencyKey(undefined, "open", dedupKey);
    const id = newId("hk", Date.now(), bucketFor(identity));
    const ledger = new DeliveryStore(redis, keys, { retentionS: 60, staleAfterMs: 60_000 });
    await new HookStore(redis, keys, ledger).persist(
      {
        id,
        source: "open",
        tenant: undefined,
        receivedAt: Date.now(),
        contentType: undefined,
        headers: {},
        body,
        sha256: "x",
        dedupKey,
        idempotencyKey: identity,
        sinks: ["a", "b"],
      },
      { dedupTtlS: 60, staleAfterMs: 60_000 },
    );
    expect(await queuedOf(gw, id, "a")).toBeUndefined();

    const again = await post("/webhooks/open", body);
    expect(again.status).toBe(200);
    expect(again.json.id).toBe(id);
    expect((await queuedOf(gw, id, "a"))?.data.p).toBe(id);
    expect((await queuedOf(gw, id, "b"))?.data.p).toBe(id);
  });

  it("makes one record of 50 concurrent copies of one hook", async () => {
    gw = await startTestGateway(config(), { roles: ["api"] });
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => post("/webhooks/open", '{"same":true}')),
    );
    const accepted = answers.filter((a) => a.status === 202);
    expect(accepted).toHaveLength(1);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(49);
    expect(new Set(answers.map((a) => a.json.id)).size).toBe(1);
    expect(await hookKeys(gw)).toHaveLength(1);
    expect(await queuedTo(gw, "a")).toHaveLength(1);
  });

  it("scopes dedup by tenant", async () => {
    gw = await startTestGateway(config(), { roles: ["api"] });
    const a = await post("/webhooks/t1/open", "{}");
    const b = await post("/webhooks/t2/open", "{}");
    expect([a.status, b.status]).toEqual([202, 202]);
    expect(a.json.id).not.toBe(b.json.id);
  });

  it("rejects a wrong, missing or stale signature with 401 and stores nothing", async () => {
    gw = await startTestGateway(config(), { roles: ["api"] });
    const wh = new Webhook(SECRET);
    const body = '{"type":"x"}';
    const sign = (id: string, at: Date) => ({
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": wh.sign(id, at, body),
    });
    const good = sign("msg_1", new Date());
    expect((await post("/webhooks/signed", body, sign("msg_0", new Date()))).status).toBe(202);
    const before = (await hookKeys(gw)).length;

    const wrong = {
      ...good,
      "webhook-signature": new Webhook("whsec_" + Buffer.from("other-secret-bytes").toString("base64")).sign(
        "msg_1",
        new Date(),
        body,
      ),
    };
    const stale = sign("msg_1", new Date(Date.now() - 301_000));
    for (const headers of [wrong, {}, stale, { ...good, "webhook-signature": "v1,AAAA" }]) {
      const res = await post("/webhooks/signed", body, headers);
      expect(res.status).toBe(401);
      expect(res.json).toEqual({ error: { code: "verification_failed", message: expect.any(String) } });
    }
    expect((await hookKeys(gw)).length).toBe(before);
    const metrics = await gw.metrics.registry.getSingleMetricAsString("switchyard_verify_failures_total");
    expect(metrics).toContain('source="signed",scheme="standard_webhooks"} 4');
  });

  it("answers 404 for unknown sources and malformed segments", async () => {
    gw = await startTestGateway(config(), { roles: ["api"] });
    for (const path of [
      "/webhooks/nope",
      "/webhooks/bad%3Aname",
      `/webhooks/${"x".repeat(65)}`,
      "/webhooks/ten%20ant/open",
    ]) {
      const res = await post(path, "{}");
      expect(res.status, path).toBe(404);
      expect(res.json.error.code).toBe("unknown_source");
    }
  });

  it("answers 429 with Retry-After when a sink queue is over the source's depth limit", async () => {
    gw = await startTestGateway(
      config({ small: { verify: { type: "none" }, sinks: ["a"], max_queue_depth: 2 } }),
      { roles: ["api"] },
    );
    let n = 0;
    const res = await (async () => {
      for (;;) {
        const r = await post("/webhooks/small", `{"n":${n++}}`);
        if (r.status !== 202) return r;
        if (n > 200) throw new Error("never throttled");
        await new Promise((r) => setTimeout(r, 30));
      }
    })();
    expect(res.status).toBe(429);
    expect(res.json.error.code).toBe("overloaded");
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("body limits", () => {
  function rawRequest(
    port: number,
    head: string,
    chunks: string[] = [],
  ): Promise<{ status: number; elapsedMs: number }> {
    return new Promise((resolve, reject) => {
      const started = Date.now();
      const socket = connect(port, "127.0.0.1", () => {
        socket.write(head);
        for (const c of chunks) socket.write(c);
      });
      let data = "";
      socket.on("data", (d) => {
        data += d.toString();
        const m = /^HTTP\/1\.1 (\d{3})/.exec(data);
        if (m) {
          socket.destroy();
          resolve({ status: Number(m[1]), elapsedMs: Date.now() - started });
        }
      });
      socket.on("error", reject);
      setTimeout(() => {
        socket.destroy();
        reject(new Error("no answer"));
      }, 5000);
    });
  }

  const smallBodyGateway = () =>
    startTestGateway(
      testConfig({
        http: { max_body_bytes: 1024 },
        sinks: { a: { type: "http", url: "http://127.0.0.1:9/" } },
        sources: { open: { verify: { type: "none" }, sinks: ["a"] } },
      }),
      { roles: ["api"] },
    );

  it("refuses a declared body over the limit with 413 before reading it", async () => {
    gw = await smallBodyGateway();
    // Ten megabytes are announced and none are sent: only a server that does not read can answer.
    const res = await rawRequest(
      gw.gateway.port!,
      "POST /webhooks/open HTTP/1.1\r\nHost: x\r\nContent-Length: 10485760\r\n\r\n",
    );
    expect(res.status).toBe(413);
    expect(await hookKeys(gw)).toHaveLength(0);
  });

  it("cuts a chunked body at the limit", async () => {
    gw = await smallBodyGateway();
    const chunk = "x".repeat(600);
    const res = await rawRequest(
      gw.gateway.port!,
      "POST /webhooks/open HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n",
      [`${(600).toString(16)}\r\n${chunk}\r\n`, `${(600).toString(16)}\r\n${chunk}\r\n`],
    );
    expect(res.status).toBe(413);
    expect(await hookKeys(gw)).toHaveLength(0);
  });
});

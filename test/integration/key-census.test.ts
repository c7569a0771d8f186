// The key census: after a mixed workload has run and retention_s has passed, every key left under the
// deployment's prefix is live state or configuration with an owner (a live endpoint's record and
// indexes, a configured sink's breaker, a queue's own bookkeeping, a running process's heartbeat), or
// expires within retention_s. Anything else is an orphan: a key kept for good that nothing will ever
// read or remove (an event nobody took, a deleted endpoint's breaker, a replay's leftovers).
import { expect, it } from "vitest";
import { admin, replayState } from "./admin-fixtures.ts";
import { sendHook } from "../support/hooks.ts";
import { createEndpoint, gateway, publish, receiver, useOutboundTeardown } from "../support/outbound.ts";
import { eventually, testConfig } from "../support/test-gateway.ts";
import { census, owner } from "../support/key-census.ts";

useOutboundTeardown();

const RETENTION_S = 3;

it("key census: after retention_s, every key left is live state or owned configuration, or expires", async () => {
  const rx = await receiver({ fallback: 200 });
  const failing = await receiver({ fallback: 500 });
  const retry = { base_ms: 20, max_ms: 100, max_attempts: 3, max_elapsed_ms: 2000 };
  const gw = await gateway(
    testConfig({
      retention_s: RETENTION_S,
      recovery: { interval_ms: 500, stale_after_ms: 1000 },
      // No breaker trips: each failing delivery dies on its third attempt, close to the others.
      dispatch: {
        retry,
        claim_check_bytes: 1024,
        breaker: { failures: 1000, open_ms: 500, max_open_ms: 2000 },
      },
      quarantine: { max_entries: 100, max_bytes: 1024 * 1024, ttl_s: RETENTION_S },
      // A page per endpoint: o-1's fanout spans two pages, so its unfinished-fanout mark is set and cleared.
      outbound: { allow_private: true, retry, fanout_page_size: 1 },
      sinks: {
        ok: { type: "http", url: `${rx.url}/ok` },
        bad: { type: "http", url: `${failing.url}/bad` },
      },
      sources: {
        good: { verify: { type: "none" }, dedup: { json: "id" }, dedup_ttl_s: RETENTION_S, sinks: ["ok"] },
        doomed: { verify: { type: "none" }, dedup_ttl_s: RETENTION_S, sinks: ["bad"] },
        signed: {
          verify: { type: "github", secrets: ["s3cret-s3cret"] },
          on_verify_failure: "quarantine",
          dedup_ttl_s: RETENTION_S,
          sinks: ["ok"],
        },
      },
    }),
  );
  const keys = gw.gateway.keys;

  // Inbound: delivered (one duplicate, one large body read through its claim), dead, then replayed.
  const delivered = await sendHook(gw, "good", JSON.stringify({ id: "a-1" }));
  const duplicate = await fetch(`${gw.url}/webhooks/good`, {
    method: "POST",
    body: JSON.stringify({ id: "a-1" }),
  });
  expect(duplicate.status).toBe(200);
  const large = await sendHook(gw, "good", JSON.stringify({ id: "big", pad: "x".repeat(4096) }));
  const doomedHooks: string[] = [];
  for (let i = 0; i < 3; i++) doomedHooks.push(await sendHook(gw, "doomed", JSON.stringify({ i })));
  // The doomed hooks die, are replayed and die again. (Dead rows expire retention_s after their death:
  // the replay follows at once.)
  const doomedDead = async () => (await admin(gw, "GET", "/v1/dlq?source=doomed")).json.data.length as number;
  await eventually(async () => (await doomedDead()) === 3, 10_000, "the 3 doomed hooks dead");
  const replay = await admin(gw, "POST", "/v1/replays", { body: { filter: { source: "doomed" } } });
  expect(replay.status).toBe(202);
  await replayState(gw, replay.json.id as string, "done");
  const deadOrGone = async (id: string) => {
    const res = await admin(gw, "GET", `/v1/hooks/${id}`);
    return res.status === 404 || res.json.sinks?.bad?.state === "dead";
  };
  await eventually(
    async () => (await Promise.all(doomedHooks.map(deadOrGone))).every(Boolean),
    20_000,
    "the replayed hooks dead again",
  );
  for (let i = 0; i < 2; i++) {
    const res = await fetch(`${gw.url}/webhooks/signed`, {
      method: "POST",
      body: JSON.stringify({ i }),
      headers: { "x-hub-signature-256": "sha256=00" },
    });
    expect(res.status).toBe(401);
  }
  expect((await admin(gw, "GET", `/v1/claims/${large}`)).status).toBe(200);

  // Outbound: fanned out (one endpoint failing), unmatched, duplicated; an endpoint deleted after use.
  const good = await createEndpoint(gw, { url: rx.url, event_types: ["order.*"], rate_limit_per_s: 100 });
  const dead = await createEndpoint(gw, { url: failing.url, event_types: ["order.*"] });
  const doomed = await createEndpoint(gw, {
    url: failing.url,
    event_types: ["gone.*"],
    rate_limit_per_s: 50,
  });
  await publish(gw, { id: "o-1", type: "order.paid", payload: { n: 1 } });
  await publish(gw, { id: "o-1", type: "order.paid", payload: { n: 1 } });
  await eventually(
    async () => {
      const rows = (await admin(gw, "GET", "/v1/events/o-1/deliveries")).json.data as { state: string }[];
      return rows.length === 2 && rows.every((r) => r.state === "delivered" || r.state === "dead");
    },
    20_000,
    "both rows of o-1 to end",
  );
  await publish(gw, { id: "nobody", type: "nobody.cares", payload: 1 });
  await publish(gw, { id: "g-1", type: "gone.soon", payload: { gone: true } });
  await eventually(
    async () => (await admin(gw, "GET", "/v1/events/g-1/deliveries")).json.data[0]?.state === "dead",
    20_000,
    "the doomed endpoint's delivery to die (its breaker counted the failures)",
  );

  expect((await admin(gw, "DELETE", `/v1/endpoints/${doomed.id}`)).status).toBe(204);
  expect((await admin(gw, "GET", `/v1/hooks/${delivered}`)).status).toBe(200);

  // Wait out retention (and a recovery tick after it), then count.
  await new Promise((r) => setTimeout(r, (RETENTION_S + 2) * 1000));
  const live = { endpoints: new Set([good.id, dead.id]), sinks: new Set(["ok", "bad"]) };
  const p = `{${gw.config.redis.prefix}`;
  const orphans: string[] = [];
  for (const [key, ttl] of await census(gw.redis, gw.config.redis.prefix)) {
    if (owner(key, p, live) !== undefined) continue;
    if (ttl === -1 || ttl > RETENTION_S) orphans.push(`${key} (ttl ${ttl})`);
  }
  expect(orphans, "keys kept past retention_s with no owner").toEqual([]);
  // The deleted endpoint took its limits with it.
  for (const kind of ["rate", "inflight", "breaker"] as const)
    expect(await gw.redis.exists(keys.endpointGate(doomed.id, kind)), kind).toBe(0);
  // And its delivery list and health buckets.
  const doomedKeys = [...(await census(gw.redis, gw.config.redis.prefix)).keys()].filter((k) =>
    k.includes(`:ep:${doomed.id}}`),
  );
  expect(doomedKeys).toEqual([]);
}, 90_000);

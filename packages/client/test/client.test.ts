// The client against a real gateway (real Redis, a loopback receiver): endpoints, publishing with an
// idempotency id, deliveries, the DLQ walked by its cursor, a replay watched to its end, breakers,
// quarantine and hooks, typed errors carrying the API's code, and a delivery verified on the receiving
// side with the endpoint's secret.
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { expect, it } from "vitest";
import {
  type SwitchyardClient,
  SwitchyardApiError,
  SwitchyardConnectionError,
  WebhookVerificationError,
  createSwitchyardClient,
  verifyDelivery,
} from "../src/index.ts";
import { gateway, outboundConfig, receiver, useOutboundTeardown } from "../../../test/support/outbound.ts";
import { ADMIN_TOKEN, eventually } from "../../../test/support/test-gateway.ts";

useOutboundTeardown();

async function setUp(): Promise<{ client: SwitchyardClient; url: string }> {
  const gw = await gateway(
    outboundConfig(
      { timeout_ms: 2000 },
      {
        sources: {
          src: { verify: { type: "none" }, sinks: ["log"], allow_non_durable: true },
          signed: {
            verify: { type: "github", secrets: ["s3cret-s3cret"] },
            on_verify_failure: "quarantine",
            sinks: ["log"],
            allow_non_durable: true,
          },
        },
      },
    ),
  );
  return { client: createSwitchyardClient({ baseUrl: gw.url, token: ADMIN_TOKEN }), url: gw.url };
}

it("manages endpoints, publishes idempotently, and a receiver verifies the delivery", async () => {
  const { client } = await setUp();
  const rx = await receiver({ fallback: 200 });
  const created = await client.endpoints.create({ url: `${rx.url}/hook`, event_types: ["order.*"] });
  expect(created.secret).toMatch(/^whsec_/);
  expect(await client.endpoints.get(created.id)).toMatchObject({ id: created.id, version: 1 });
  const updated = await client.endpoints.update(created.id, { description: "orders" });
  expect(updated.description).toBe("orders");
  const second = await client.endpoints.create({ url: `${rx.url}/other`, event_types: ["user.*"] });
  const listed: string[] = [];
  for await (const e of client.endpoints.all({ limit: 1 })) listed.push(e.id);
  expect(listed).toEqual([created.id, second.id]);
  await client.endpoints.delete(second.id);

  const first = await client.events.publish({ type: "order.paid", payload: { order: 7 } });
  expect(first.counts.created).toBe(1);
  // The id the client made is the event's: publishing it again is the same event, not a second one.
  const again = await client.events.publish({
    id: first.event_id,
    type: "order.paid",
    payload: { order: 7 },
  });
  expect(again.counts).toMatchObject({ created: 0, duplicate: 1 });
  expect((await client.events.get(first.event_id)).payload).toEqual({ order: 7 });

  const [delivered] = await rx.waitForRequests(1);
  const verified = verifyDelivery<{ type: string; data: unknown }>(
    delivered!.body,
    delivered!.headers,
    created.secret,
  );
  expect(verified.payload).toMatchObject({ type: "order.paid", data: { order: 7 } });
  expect(() => verifyDelivery(delivered!.body, delivered!.headers, "whsec_" + "A".repeat(32))).toThrow(
    WebhookVerificationError,
  );
  const rotated = await client.endpoints.rotateSecret(created.id);
  expect(rotated.secret).not.toBe(created.secret);
  // During the rotation a delivery is signed with both: a receiver holding either (or both) verifies it.
  await client.events.publish({ type: "order.shipped", payload: { order: 7 } });
  const [, afterRotation] = await rx.waitForRequests(2);
  for (const secrets of [[created.secret], [rotated.secret], ["whsec_" + "B".repeat(32), rotated.secret]])
    expect(verifyDelivery(afterRotation!.body, afterRotation!.headers, secrets).payload).toMatchObject({
      type: "order.shipped",
    });
  const { data } = await eventually(async () => {
    const rows = await client.events.deliveries(first.event_id);
    return rows.data[0]?.state === "delivered" ? rows : undefined;
  });
  expect(data[0]).toMatchObject({ endpoint_id: created.id, attempts: 1 });
});

it("walks the DLQ by its cursor, replays it and follows the replay to its end", async () => {
  const { client } = await setUp();
  // The first 410 disables the endpoint, and a disabled endpoint is sent no new event: the receiver
  // answers only once all three are published, or a fast first delivery leaves the others unmade.
  let published!: () => void;
  const allPublished = new Promise<void>((resolve) => (published = resolve));
  const rx = await receiver({ fallback: { status: 410, after: allPublished } });
  const endpoint = await client.endpoints.create({ url: `${rx.url}/gone`, event_types: ["*"] });
  for (let i = 0; i < 3; i++) await client.events.publish({ type: "item.made", payload: { i } });
  published();
  await eventually(async () => (await client.dlq.list({ endpoint: endpoint.id })).data.length === 3);
  const dead: string[] = [];
  for await (const entry of client.dlq.entries({ endpoint: endpoint.id, limit: 2 })) dead.push(entry.id);
  expect(new Set(dead).size).toBe(3);

  await client.endpoints.update(endpoint.id, { disabled: false });
  rx.setFallback(200);
  const replay = await client.replays.create({ filter: { endpoint: endpoint.id } });
  const seen: string[] = [];
  for await (const progress of client.replays.progress(replay.id, 50)) seen.push(progress.state);
  expect(seen.at(-1)).toBe("done");
  const final = await client.replays.get(replay.id);
  expect(final).toMatchObject({ matched: 3, moved: 3, failed: 0 });
  const all: string[] = [];
  for await (const r of client.replays.all()) all.push(r.id);
  expect(all).toEqual([replay.id]);
  await expect(client.replays.cancel(replay.id)).rejects.toMatchObject({ status: 409, code: "conflict" });
});

it("shows breakers, quarantine and hooks, and throws typed errors", async () => {
  const { client, url } = await setUp();
  const breakers = await client.breakers.list();
  expect(breakers.sinks.map((s) => s.sink)).toEqual(["log"]);
  expect(breakers.endpoints_truncated).toBe(false);

  const bad = await fetch(`${url}/webhooks/signed`, { method: "POST", body: "{}" });
  expect(bad.status).toBe(401);
  const [kept] = (await client.quarantine.list()).data;
  expect((await client.quarantine.get(kept!.id, { body: true })).body_base64).toBe(
    Buffer.from("{}").toString("base64"),
  );
  const taken = (await (await fetch(`${url}/webhooks/src`, { method: "POST", body: "{}" })).json()) as {
    id: string;
  };
  expect((await client.hooks.get(taken.id)).source).toBe("src");

  const missing = await client.endpoints.get("ep_00000000000000000000000000").catch((e: unknown) => e);
  expect(missing).toBeInstanceOf(SwitchyardApiError);
  expect(missing).toMatchObject({ status: 404, code: "not_found" });
  const invalid = await client.endpoints
    .create({ url: "ftp://x.example/", event_types: ["a"] })
    .catch((e: unknown) => e);
  expect(invalid).toMatchObject({ status: 400, code: "invalid_request" });
  expect((invalid as Error).message).toMatch(/^url: must be an absolute http or https URL/);
  const anonymous = createSwitchyardClient({ baseUrl: url });
  await expect(anonymous.breakers.list()).rejects.toMatchObject({ status: 401, code: "unauthorized" });
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const { port } = closed.address() as AddressInfo;
  await new Promise((resolve) => closed.close(resolve));
  const nowhere = createSwitchyardClient({ baseUrl: `http://127.0.0.1:${port}`, token: ADMIN_TOKEN });
  const down = await nowhere.breakers.list().catch((e: unknown) => e);
  expect(down).toBeInstanceOf(SwitchyardConnectionError);
  expect((down as SwitchyardConnectionError).reason).toBe("ECONNREFUSED");
});

it("declares event types, sends a test event, follows its deliveries and stats, and mints a portal link", async () => {
  const { client, url } = await setUp();
  const rx = await receiver({ fallback: 200 });
  const declared = await client.eventTypes.declare({ name: "order.paid", example: { order: 1 } });
  expect(declared).toMatchObject({ name: "order.paid", origin: "api" });
  const declaredTypes = (await client.eventTypes.list()).data.filter((t) => t.origin !== "builtin");
  expect(declaredTypes.map((t) => t.name)).toEqual(["order.paid"]);
  const endpoint = await client.endpoints.create({
    url: `${rx.url}/hook`,
    event_types: ["order.*", "user.*"],
  });
  expect(endpoint.warnings.map((w) => w.event_type)).toEqual(["user.*"]);

  const sent = await client.endpoints.sendTestEvent(endpoint.id);
  await client.endpoints.sendTestEvent(endpoint.id, "order.paid");
  expect(sent.counts.created).toBe(1);
  const [delivery] = sent.results;
  expect(delivery?.endpoint_id).toBe(endpoint.id);
  const rows = await eventually(async () => {
    const seen: string[] = [];
    for await (const d of client.endpoints.deliveries(endpoint.id, { state: "delivered", limit: 1 }))
      seen.push(d.id);
    return seen.length === 2 ? seen : undefined;
  });
  const one = await client.deliveries.get(rows[0]!);
  expect(one).toMatchObject({ direction: "outbound", target: endpoint.id, attempt_count: 1 });
  expect(one.attempts[0]?.status_code).toBe(200);
  const stats = await client.endpoints.stats(endpoint.id);
  expect(stats).toMatchObject({ endpoint_id: endpoint.id, disabled: false, last_status: 200 });

  const link = await client.portal.createSession({ tenant: "acme", read_only: true });
  expect(link).toMatchObject({ tenant: "acme", read_only: true });
  expect(link.url.startsWith(`${url}/portal#`)).toBe(true);
});

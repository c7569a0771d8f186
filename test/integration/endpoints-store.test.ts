// The endpoint store on the real Redis: records, paging, subscription indexes kept exact through every
// write, tenant isolation in matching, and the compare-and-set writes the delivery worker relies on.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SECRET_OVERLAP_MS, liveSecrets } from "../../src/domain/endpoint.ts";
import { isId } from "../../src/domain/ids.ts";
import { decodeSecret, generateSecret } from "../../src/domain/signing.ts";
import type { EndpointStore, NewEndpoint } from "../../src/store/endpoint-store.ts";
import { type EndpointScratch, endpointScratch } from "../support/endpoint-redis.ts";

let s: EndpointScratch;
let store: EndpointStore;
beforeEach(() => {
  s = endpointScratch();
  store = s.store;
});
afterEach(async () => {
  await s.cleanup();
});

const make = (event_types: string[], extra: Partial<NewEndpoint> = {}) =>
  store.create({ url: "https://example.com/in", event_types, ...extra });
const ids = (list: readonly { id: string }[]) => list.map((e) => e.id);

/** Every subscription set of the test prefix and its members. */
async function subscriptions(): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const key of await s.keysLeft()) {
    if (!key.includes(":sub:")) continue;
    out[key.slice(key.indexOf(":sub:") + 5)] = (await s.redis.smembers(key)).sort();
  }
  return out;
}

describe("EndpointStore records", () => {
  it("creates an endpoint with a fresh 24-byte secret, version 1, and reads it back", async () => {
    const e = await make(["order.paid", "order.paid", "user.*"], {
      headers: { "X-Custom": "v" },
      description: "d",
      rate_limit_per_s: 10,
    });
    expect(isId("ep", e.id)).toBe(true);
    expect(decodeSecret(e.secret)).toHaveLength(24);
    expect(e).toMatchObject({ version: 1, disabled: false, event_types: ["order.paid", "user.*"] });
    expect(e.headers).toEqual({ "x-custom": "v" });
    expect(await store.get(e.id)).toEqual(e);
    expect(await store.get("ep_nope")).toBeUndefined();
  });

  it("takes a given secret, and refuses a malformed one or a bad pattern", async () => {
    const secret = generateSecret(64);
    expect((await make(["a"], { secret })).secret).toBe(secret);
    await expect(make(["a"], { secret: generateSecret(16) })).rejects.toThrow(/24–64 bytes/);
    await expect(make(["a.*.b"])).rejects.toThrow(/pattern/);
    await expect(make(["a"], { tenant: "a:b" })).rejects.toThrow(/tenant/);
  });

  it("lists in creation order, a page at a time, per tenant or all", async () => {
    const made: string[] = [];
    for (let i = 0; i < 7; i++) made.push((await make(["a"], i % 2 ? { tenant: "acme" } : {})).id);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await store.list({ limit: 3, ...(cursor ? { cursor } : {}) });
      seen.push(...ids(page.endpoints));
      cursor = page.next;
      pages += 1;
    } while (cursor);
    expect(seen).toEqual([...made].sort());
    expect(pages).toBe(3);
    const acme = await store.list({ tenant: "acme", limit: 100 });
    expect(ids(acme.endpoints)).toEqual(made.filter((_, i) => i % 2).sort());
    expect(acme.next).toBeUndefined();
    expect((await store.list({ tenant: "other", limit: 10 })).endpoints).toEqual([]);
  });

  it("deletes an endpoint with every index entry", async () => {
    const e = await make(["order.*", "*", "user.created"], { tenant: "acme" });
    const other = await make(["order.*"]);
    expect(await store.delete(e.id)).toBe(true);
    expect(await store.delete(e.id)).toBe(false);
    const left = await s.keysLeft();
    expect(left.every((k) => !k.includes(e.id))).toBe(true);
    expect(await subscriptions()).toEqual({ "-:prefix:order": [other.id] });
    expect(ids((await store.list({ limit: 10 })).endpoints)).toEqual([other.id]);
  });
});

describe("EndpointStore.match", () => {
  it("finds exact, prefix (any depth) and * subscribers, nothing else", async () => {
    const exact = await make(["order.paid"]);
    const prefix = await make(["order.*"]);
    const deep = await make(["order.paid.*"]);
    const all = await make(["*"]);
    await make(["order"]);
    await make(["orders.*"]);
    await make(["user.*"]);
    expect(ids(await store.match(undefined, "order.paid"))).toEqual(ids([exact, prefix, all]).sort());
    expect(ids(await store.match(undefined, "order.paid.late"))).toEqual(ids([prefix, deep, all]).sort());
    expect(ids(await store.match(undefined, "invoice"))).toEqual([all.id]);
    expect(await store.match(undefined, "not a type")).toEqual([]);
  });

  it("keeps tenants apart: tenant events reach only that tenant's endpoints", async () => {
    const none = await make(["*"]);
    const acme = await make(["*"], { tenant: "acme" });
    const globex = await make(["order.*"], { tenant: "globex" });
    expect(ids(await store.match(undefined, "order.paid"))).toEqual([none.id]);
    expect(ids(await store.match("acme", "order.paid"))).toEqual([acme.id]);
    expect(ids(await store.match("globex", "order.paid"))).toEqual([globex.id]);
    expect(await store.match("initech", "order.paid")).toEqual([]);
    expect(await store.match("-", "order.paid")).toEqual([]);
  });

  it("follows updates: new patterns in, old ones out, disabled endpoints out", async () => {
    const e = await make(["order.*"]);
    await store.update(e.id, { event_types: ["user.created"] });
    expect(await store.match(undefined, "order.paid")).toEqual([]);
    expect(ids(await store.match(undefined, "user.created"))).toEqual([e.id]);
    expect(await subscriptions()).toEqual({ "-:type:user.created": [e.id] });

    await store.update(e.id, { disabled: true });
    expect(await store.match(undefined, "user.created")).toEqual([]);
    expect(await subscriptions()).toEqual({});
    await store.update(e.id, { disabled: false });
    expect(ids(await store.match(undefined, "user.created"))).toEqual([e.id]);

    const off = await make(["user.created"], { disabled: true });
    expect(off.disabled_reason).toBe("disabled by an operator");
    expect(ids(await store.match(undefined, "user.created"))).toEqual([e.id]);
  });

  it("reads only the type's subscription sets and the matching records, however many endpoints exist", async () => {
    const wanted = await make(["a.b.*"]);
    await Promise.all(Array.from({ length: 200 }, (_, i) => make([`noise${i}.x`, `noise.${i}.*`])));
    // Every command the store sends, pipelined ones included, goes through sendCommand.
    const spy = vi.spyOn(s.redis, "sendCommand");
    expect(ids(await store.match(undefined, "a.b.c"))).toEqual([wanted.id]);
    const commands = spy.mock.calls.map(([command]) => [command.name, ...command.args.map(String)]);
    spy.mockRestore();
    const names = commands.map((c) => c[0]?.toLowerCase());
    expect(names.sort()).toEqual(["hgetall", "sunion"]);
    const sunion = commands.find((c) => c[0]?.toLowerCase() === "sunion") ?? [];
    expect(sunion.slice(1).map((k) => k.slice(k.indexOf(":sub:") + 5))).toEqual([
      "-:type:a.b.c",
      "-:prefix:a",
      "-:prefix:a.b",
      "-:all",
    ]);
  });

  it("keeps the indexes exact under concurrent updates", async () => {
    const e = await make(["start"]);
    const variants = Array.from({ length: 20 }, (_, i) => [`t${i}.a`, `p${i % 3}.*`]);
    await Promise.all(variants.map((event_types) => store.update(e.id, { event_types })));
    const final = await store.get(e.id);
    const expected = Object.fromEntries(
      (final?.event_types ?? []).map((p) => [
        p.endsWith(".*") ? `-:prefix:${p.slice(0, -2)}` : `-:type:${p}`,
        [e.id],
      ]),
    );
    expect(await subscriptions()).toEqual(expected);
    expect(final?.version).toBe(21);
  });
});

describe("EndpointStore writes for the delivery worker", () => {
  it("rotates the secret, keeping the old one live for 24 h", async () => {
    const e = await make(["a"]);
    const now = Date.now();
    const rotated = await store.rotateSecret(e.id, undefined, now);
    expect(rotated?.secret).not.toBe(e.secret);
    expect(rotated?.version).toBe(2);
    expect(rotated?.previous_secrets).toEqual([{ secret: e.secret, expires_at: now + SECRET_OVERLAP_MS }]);
    const stored = await store.get(e.id);
    expect(stored && liveSecrets(stored, now + 1)).toEqual([rotated?.secret, e.secret]);
    const mine = generateSecret(48);
    expect((await store.rotateSecret(e.id, mine, now + 2))?.secret).toBe(mine);
    await expect(store.rotateSecret(e.id, mine)).rejects.toThrow(/current one/);
    await expect(store.rotateSecret(e.id, "whsec_short")).rejects.toThrow(RangeError);
    expect(await store.rotateSecret("ep_missing")).toBeUndefined();
  });

  it("disables only at the version the caller saw", async () => {
    const e = await make(["a"]);
    const changed = await store.update(e.id, { url: "https://example.com/v2" });
    expect(changed?.version).toBe(2);
    expect(await store.disableIfVersion(e.id, 1, "HTTP 410", 5)).toBe(false);
    expect((await store.get(e.id))?.disabled).toBe(false);
    expect(await store.disableIfVersion(e.id, 2, "HTTP 410", 5)).toBe(true);
    expect(await store.get(e.id)).toMatchObject({
      disabled: true,
      disabled_reason: "HTTP 410",
      disabled_at: 5,
      version: 3,
    });
    expect(await store.disableIfVersion(e.id, 3, "again", 6)).toBe(false);
    expect(await store.match(undefined, "a")).toEqual([]);
    expect(await store.disableIfVersion("ep_missing", 1, "x")).toBe(false);
  });

  it("description and rate limit changes do not move the version", async () => {
    const e = await make(["a"]);
    const u = await store.update(e.id, { description: "hello", rate_limit_per_s: 3 }, e.created_at + 1);
    expect(u).toMatchObject({
      version: 1,
      description: "hello",
      rate_limit_per_s: 3,
      updated_at: e.created_at + 1,
    });
    const cleared = await store.update(e.id, { description: null, rate_limit_per_s: null });
    expect(cleared?.description).toBeUndefined();
    expect((await store.get(e.id))?.rate_limit_per_s).toBeUndefined();
    expect(await store.update("ep_missing", { description: "x" })).toBeUndefined();
  });

  it("marks failing once, clears on health, and never recreates a deleted endpoint", async () => {
    const e = await make(["a"]);
    expect(await store.markFailing(e.id, 100)).toBe(100);
    expect(await store.markFailing(e.id, 200)).toBe(100);
    expect((await store.get(e.id))?.failing_since).toBe(100);
    await store.markHealthy(e.id);
    expect((await store.get(e.id))?.failing_since).toBeUndefined();
    expect(await store.markFailing(e.id, 300)).toBe(300);
    await store.delete(e.id);
    expect(await store.markFailing(e.id, 400)).toBeUndefined();
    await store.markHealthy(e.id);
    expect(await s.redis.exists(s.keys.endpoint(e.id))).toBe(0);
  });
});

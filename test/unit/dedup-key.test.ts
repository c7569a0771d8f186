import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { DedupConfig } from "../../src/config/schema.ts";
import { computeDedupKey } from "../../src/ingest/dedup-key.ts";
import { jsonPathValue } from "../../src/ingest/json-path-scan.ts";

const sha = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");
const json = (v: unknown) => Buffer.from(JSON.stringify(v));
const STRIPE_BODY = json({
  id: "evt_1NG8Du2eZvKYlo2CUI79vXWy",
  object: "event",
  data: { object: { id: "pi_1" } },
});
const RAW = Buffer.from("not json at all");

describe("computeDedupKey", () => {
  it("body: sha256 hex of the exact bytes", () => {
    expect(computeDedupKey("body", {}, RAW)).toBe(`sha256:${sha(RAW)}`);
    expect(computeDedupKey("body", {}, Buffer.alloc(0))).toBe(`sha256:${sha("")}`);
    expect(computeDedupKey("body", {}, Buffer.from("a "))).not.toBe(
      computeDedupKey("body", {}, Buffer.from("a")),
    );
  });

  it("stripe: the event id from the JSON body", () => {
    expect(computeDedupKey("stripe", {}, STRIPE_BODY)).toBe("j:evt_1NG8Du2eZvKYlo2CUI79vXWy");
  });

  it("stripe: falls back to the body hash for non-JSON, a missing id, an empty id or a non-scalar id", () => {
    for (const body of [
      RAW,
      json({ object: "event" }),
      json({ id: "" }),
      json({ id: { x: 1 } }),
      json([1, 2]),
      json(null),
    ]) {
      expect(computeDedupKey("stripe", {}, body)).toBe(`sha256:${sha(body)}`);
    }
  });

  it("github, shopify: their delivery/webhook id headers", () => {
    const headers = {
      "x-github-delivery": "72d3162e-cc78-11e3-81ab-4c9367dc0958",
      "x-shopify-webhook-id": "b54557e4",
    };
    expect(computeDedupKey("github", headers, RAW)).toBe("h:72d3162e-cc78-11e3-81ab-4c9367dc0958");
    expect(computeDedupKey("shopify", headers, RAW)).toBe("h:b54557e4");
    expect(computeDedupKey("github", {}, RAW)).toBe(`sha256:${sha(RAW)}`);
    expect(computeDedupKey("shopify", { "x-shopify-webhook-id": "" }, RAW)).toBe(`sha256:${sha(RAW)}`);
  });

  it("standard_webhooks prefers webhook-id, svix prefers svix-id; each falls back to the other", () => {
    const both = { "webhook-id": "msg_w", "svix-id": "msg_s" };
    expect(computeDedupKey("standard_webhooks", both, RAW)).toBe("h:msg_w");
    expect(computeDedupKey("svix", both, RAW)).toBe("h:msg_s");
    expect(computeDedupKey("standard_webhooks", { "svix-id": "msg_s" }, RAW)).toBe("h:msg_s");
    expect(computeDedupKey("svix", { "webhook-id": "msg_w" }, RAW)).toBe("h:msg_w");
    expect(computeDedupKey("svix", {}, RAW)).toBe(`sha256:${sha(RAW)}`);
  });

  it("{ header }: any named header, looked up lower-case", () => {
    expect(computeDedupKey({ header: "x-event-id" }, { "x-event-id": "e-42" }, RAW)).toBe("h:e-42");
    expect(computeDedupKey({ header: "X-Event-Id" }, { "x-event-id": "e-42" }, RAW)).toBe("h:e-42");
    expect(computeDedupKey({ header: "x-event-id" }, {}, RAW)).toBe(`sha256:${sha(RAW)}`);
  });

  it("{ json }: dot paths, array indexes and numeric values", () => {
    const body = json({ data: { id: "d1", n: 7, items: [{ id: "i0" }, { id: "i1" }] } });
    expect(computeDedupKey({ json: "data.id" }, {}, body)).toBe("j:d1");
    expect(computeDedupKey({ json: "data.n" }, {}, body)).toBe("j:7");
    expect(computeDedupKey({ json: "data.items.1.id" }, {}, body)).toBe("j:i1");
    for (const path of [
      "data.items.9.id",
      "data.items.x",
      "data.missing",
      "data",
      "data.items",
      "data.id.deeper",
    ]) {
      expect(computeDedupKey({ json: path }, {}, body)).toBe(`sha256:${sha(body)}`);
    }
  });

  it("{ json }: inherited properties are not followed", () => {
    const body = json({ a: {} });
    expect(jsonPathValue(body, "a.constructor.name")).toBeUndefined();
    expect(computeDedupKey({ json: "__proto__" }, {}, body)).toBe(`sha256:${sha(body)}`);
    expect(computeDedupKey({ json: "toString" }, {}, body)).toBe(`sha256:${sha(body)}`);
  });

  it("namespaces cannot collide: a header or field that looks like a body hash stays distinct", () => {
    const fake = `sha256:${sha(RAW)}`;
    expect(computeDedupKey({ header: "x-id" }, { "x-id": fake }, RAW)).toBe(`h:${fake}`);
    expect(computeDedupKey({ json: "id" }, {}, json({ id: "same" }))).not.toBe(
      computeDedupKey({ header: "x-id" }, { "x-id": "same" }, RAW),
    );
  });

  it("bounds the key: values over 200 chars are replaced by their sha256, namespaced", () => {
    const at200 = "a".repeat(200);
    const over = "a".repeat(201);
    expect(computeDedupKey({ header: "x-id" }, { "x-id": at200 }, RAW)).toBe(`h:${at200}`);
    expect(computeDedupKey({ header: "x-id" }, { "x-id": over }, RAW)).toBe(`h-sha256:${sha(over)}`);
    expect(computeDedupKey({ json: "id" }, {}, json({ id: over }))).toBe(`j-sha256:${sha(over)}`);
    const huge = "x".repeat(1_000_000);
    expect(computeDedupKey({ header: "x-id" }, { "x-id": huge }, RAW).length).toBeLessThanOrEqual(80);
  });

  it("never throws on odd input", () => {
    const odd: DedupConfig[] = ["stripe", "body", { json: "a.b" }, { json: "..." }, { header: "x" }];
    const bodies = [
      Buffer.alloc(0),
      Buffer.from([0xff, 0xfe]),
      Buffer.from("{"),
      Buffer.from('"str"'),
      Buffer.from("null"),
    ];
    for (const cfg of odd) {
      for (const body of bodies) {
        expect(() => computeDedupKey(cfg, {}, body)).not.toThrow();
        expect(computeDedupKey(cfg, {}, body)).toBe(`sha256:${sha(body)}`);
      }
    }
    expect(computeDedupKey({ json: "n" }, {}, Buffer.from('{"n": 1e400}'))).toBe(
      `sha256:${sha('{"n": 1e400}')}`,
    );
  });
});

describe("computeDedupKey with the body's hash already known", () => {
  it("uses the caller's sha256 instead of hashing the body again", () => {
    const body = Buffer.from("{}");
    expect(computeDedupKey("body", {}, body, "c0ffee")).toBe("sha256:c0ffee");
    expect(computeDedupKey("github", {}, body, "c0ffee")).toBe("sha256:c0ffee");
    expect(computeDedupKey("github", { "x-github-delivery": "d-1" }, body, "c0ffee")).toBe("h:d-1");
  });
});

describe("dedup_json_hostile_body", () => {
  const MB = 1_000_000;
  // The best of five after a warm-up, each run beside a linear yardstick (hashing the same bytes), because
  // this machine is shared: under load both slow down alike, so the bound is 50 ms or 25 hashes of the
  // body, whichever is longer. JSON.parse of the nested body never gets under ~200 ms (~80 hashes).
  const timed = (body: Buffer, cfg: DedupConfig = { json: "data.id" }) => {
    let key = computeDedupKey(cfg, {}, body);
    let ms = Number.POSITIVE_INFINITY;
    let hashMs = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 5; i++) {
      const hashStarted = performance.now();
      sha(body);
      hashMs = Math.min(hashMs, performance.now() - hashStarted);
      const started = performance.now();
      key = computeDedupKey(cfg, {}, body);
      ms = Math.min(ms, performance.now() - started);
    }
    return { key, ms, bound: Math.max(50, 25 * hashMs) };
  };

  it("keys a 1 MB body of nested arrays in under 50 ms, by the body's hash", () => {
    const body = Buffer.from("[".repeat(MB / 2) + "]".repeat(MB / 2));
    const { key, ms, bound } = timed(body);
    expect(key).toBe(`sha256:${sha(body)}`);
    expect(ms).toBeLessThan(bound);
  });

  it("keys other 1 MB shapes in under 50 ms: deep objects, wide arrays, many keys, long strings, literals", () => {
    const deepObjects = Buffer.from('{"data":'.repeat(MB / 16) + "1" + "}".repeat(MB / 16));
    const wide = Buffer.from(`[${Array.from({ length: MB / 3 }, () => "[]").join(",")}]`);
    const manyKeys = Buffer.from(
      `{${Array.from({ length: MB / 16 }, (_, i) => `"k${i}":${i}`).join(",")},"data":{"id":"last"}}`,
    );
    const longString = Buffer.from(`{"data":{"id":"x"},"pad":"${"y".repeat(MB)}"}`);
    const literals = Buffer.from(`[${Array.from({ length: MB / 6 }, () => "true").join(",")}]`);
    const numbers = Buffer.from(`[${Array.from({ length: MB / 8 }, () => "-1.5e+3").join(",")}]`);
    for (const body of [deepObjects, wide, manyKeys, longString, literals, numbers]) {
      expect(body.length).toBeGreaterThan(MB / 2);
      const { ms, bound } = timed(body);
      expect(ms).toBeLessThan(bound);
    }
    expect(timed(manyKeys).key).toBe("j:last");
    expect(timed(longString).key).toBe("j:x");
    expect(timed(deepObjects).key).toBe(`sha256:${sha(deepObjects)}`);
  });

  it("does not scan bodies over 1 MiB: their key is the body hash", () => {
    const big = Buffer.from(`{"data":{"id":"x"},"pad":"${"y".repeat(1_048_576)}"}`);
    expect(computeDedupKey({ json: "data.id" }, {}, big)).toBe(`sha256:${sha(big)}`);
  });

  it("answers what JSON.parse would: escapes, duplicate keys, invalid documents", () => {
    const cases: [string, string, string | undefined][] = [
      ['{"\\u0069d":"e\\u0301"}', "id", "e\u0301"],
      ['{"id":"a","id":"b"}', "id", "b"],
      ['{"d":{"id":"a"},"d":{"other":1}}', "d.id", undefined],
      ['{"id":-0}', "id", "0"],
      ['{"id":1.5e3}', "id", "1500"],
      ['{"id":"x"} trailing', "id", undefined],
      ['{"id":"x",}', "id", undefined],
      ['{"id":01}', "id", undefined],
      ['{"id":"tab\there"}', "id", undefined],
      ['{"id":"\\x"}', "id", undefined],
      ['[{"id":"a"},{"id":"b"}]', "1.id", "b"],
      ['{"0":"zero"}', "0", "zero"],
      ['{"id":"ok","n":[true,false,null]}', "id", "ok"],
      ['{"id":"ok","n":[tru]}', "id", undefined],
      ['{"__proto__":"p"}', "__proto__", "p"],
    ];
    for (const [text, path, expected] of cases) {
      const viaParse = (() => {
        try {
          const node = path.split(".").reduce<unknown>((n, seg) => {
            if (Array.isArray(n)) return /^\d+$/.test(seg) ? n[Number(seg)] : undefined;
            return typeof n === "object" && n !== null && Object.hasOwn(n, seg)
              ? (n as Record<string, unknown>)[seg]
              : undefined;
          }, JSON.parse(text));
          if (typeof node === "string") return node === "" ? undefined : node;
          return typeof node === "number" && Number.isFinite(node) ? String(node) : undefined;
        } catch {
          return undefined;
        }
      })();
      expect(viaParse, text).toBe(expected);
      expect(jsonPathValue(Buffer.from(text), path), text).toBe(expected);
    }
  });

  it("refuses nesting deeper than 64 but reads a value at depth 64", () => {
    const nested = (depth: number) =>
      Buffer.from(`${'{"a":'.repeat(depth - 1)}{"id":"deep"}${"}".repeat(depth - 1)}`);
    const path = (depth: number) => [...Array.from({ length: depth - 1 }, () => "a"), "id"].join(".");
    expect(computeDedupKey({ json: path(64) }, {}, nested(64))).toBe("j:deep");
    expect(computeDedupKey({ json: path(65) }, {}, nested(65))).toBe(`sha256:${sha(nested(65))}`);
  });
});

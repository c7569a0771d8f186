import { createHmac } from "node:crypto";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { Webhook as SvixWebhook } from "svix";
import { describe, expect, it } from "vitest";
import { decodeSecret, generateSecret, signStandardWebhook } from "../../src/domain/signing.ts";

const body = Buffer.from(JSON.stringify({ type: "order.created", data: { id: 42, note: "naïve – ✓" } }));
const now = (): number => Math.floor(Date.now() / 1000);

describe("signStandardWebhook", () => {
  it("is accepted by the standardwebhooks and svix verifiers with one secret", () => {
    const secret = generateSecret();
    const headers = signStandardWebhook({ id: "hk_1", timestampS: now(), body, secrets: [secret] });
    expect(new StandardWebhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body.toString()));
    expect(new SvixWebhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body.toString()));
    // svix also reads its own branded header names
    const branded = {
      "svix-id": headers["webhook-id"],
      "svix-timestamp": headers["webhook-timestamp"],
      "svix-signature": headers["webhook-signature"],
    };
    expect(new SvixWebhook(secret).verify(body, branded)).toBeDefined();
  });

  it("signs with every secret during a rotation, so a verifier knowing either one accepts", () => {
    const [oldSecret, newSecret] = [generateSecret(), generateSecret()];
    const headers = signStandardWebhook({
      id: "hk_2",
      timestampS: now(),
      body,
      secrets: [newSecret, oldSecret],
    });
    expect(headers["webhook-signature"].split(" ")).toHaveLength(2);
    for (const s of [oldSecret, newSecret]) {
      expect(() => new StandardWebhook(s).verify(body, { ...headers })).not.toThrow();
      expect(() => new SvixWebhook(s).verify(body, { ...headers })).not.toThrow();
    }
    expect(() => new StandardWebhook(generateSecret()).verify(body, { ...headers })).toThrow(
      /No matching signature/,
    );
  });

  it("matches the library's own signature byte for byte", () => {
    const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const ts = 1_700_000_000;
    const ours = signStandardWebhook({
      id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
      timestampS: ts,
      body,
      secrets: [secret],
    });
    const theirs = new StandardWebhook(secret).sign(
      "msg_p5jXN8AQM9LWM0D4loKWxJek",
      new Date(ts * 1000),
      body,
    );
    expect(ours["webhook-signature"]).toBe(theirs);
    expect(ours["webhook-timestamp"]).toBe("1700000000");
    expect(ours["webhook-id"]).toBe("msg_p5jXN8AQM9LWM0D4loKWxJek");
  });

  it("rejects a tampered body, id or timestamp", () => {
    const secret = generateSecret();
    const headers = signStandardWebhook({ id: "hk_3", timestampS: now(), body, secrets: [secret] });
    const wh = new StandardWebhook(secret);
    expect(() => wh.verify(Buffer.from(body.toString().replace("42", "43")), { ...headers })).toThrow();
    expect(() => wh.verify(body, { ...headers, "webhook-id": "hk_4" })).toThrow();
    expect(() =>
      wh.verify(body, { ...headers, "webhook-timestamp": String(Number(headers["webhook-timestamp"]) + 1) }),
    ).toThrow();
  });

  it("signs the exact bytes of a non-UTF-8 body", () => {
    const secret = generateSecret();
    const binary = Buffer.from([0xff, 0xfe, 0x00, 0x80, 0xc3, 0x28]);
    const headers = signStandardWebhook({
      id: "hk_5",
      timestampS: 1_700_000_000,
      body: binary,
      secrets: [secret],
    });
    const expected = createHmac("sha256", decodeSecret(secret))
      .update(Buffer.concat([Buffer.from("hk_5.1700000000."), binary]))
      .digest("base64");
    expect(headers["webhook-signature"]).toBe(`v1,${expected}`);
  });

  it("accepts a secret without the whsec_ prefix as the same key", () => {
    const secret = generateSecret();
    const a = signStandardWebhook({ id: "x", timestampS: 1, body, secrets: [secret] });
    const b = signStandardWebhook({ id: "x", timestampS: 1, body, secrets: [secret.slice("whsec_".length)] });
    expect(a).toEqual(b);
  });

  it("refuses unusable secrets and an empty secret list", () => {
    expect(() => decodeSecret("whsec_")).toThrow(/empty/);
    expect(() => decodeSecret("whsec_not base64!")).toThrow(/base64/);
    expect(() => signStandardWebhook({ id: "x", timestampS: 1, body, secrets: [] })).toThrow();
  });
});

describe("generateSecret", () => {
  it("returns whsec_ + base64 of 24 random bytes, different each time", () => {
    const a = generateSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(decodeSecret(a)).toHaveLength(24);
    expect(generateSecret()).not.toBe(a);
  });

  it("takes a byte count, and refuses one that is not a positive integer", () => {
    expect(decodeSecret(generateSecret(64))).toHaveLength(64);
    expect(decodeSecret(generateSecret(32))).toHaveLength(32);
    for (const bad of [0, -1, 1.5, NaN]) expect(() => generateSecret(bad)).toThrow(RangeError);
  });
});

// Cross-scheme properties of the verify engine: dispatch, metric names, log-safe reasons, no throws.
import { createHmac, randomBytes } from "node:crypto";
import Stripe from "stripe";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import type { VerifyConfig } from "../../../src/config/schema.ts";
import { verifySchemeName, verifySignature } from "../../../src/ingest/verify/index.ts";
import { BODY, NOW_MS, NOW_S, req, tampered, viaSchema } from "./helpers.ts";

const SECRET = "whsec_" + randomBytes(24).toString("base64");
const WRONG = "whsec_" + randomBytes(24).toString("base64");
const hex = (s: string, data: string) => createHmac("sha256", s).update(data).digest("hex");
const b64 = (s: string, data: string) => createHmac("sha256", s).update(data).digest("base64");

interface Scheme {
  cfg: VerifyConfig;
  /** Does the scheme carry a timestamp (so stale/future requests must fail)? */
  timed: boolean;
  sign: (secret: string, ts: number) => Record<string, string>;
}

/** Per scheme: a config, and signed headers for a given secret and timestamp. */
const schemes: Record<string, Scheme> = {
  stripe: {
    cfg: viaSchema({ type: "stripe", secrets: [SECRET] }),
    timed: true,
    sign: (secret, timestamp) => ({
      "stripe-signature": Stripe.webhooks.generateTestHeaderString({ payload: BODY, secret, timestamp }),
    }),
  },
  github: {
    cfg: viaSchema({ type: "github", secrets: [SECRET] }),
    timed: false,
    sign: (secret) => ({ "x-hub-signature-256": `sha256=${hex(secret, BODY)}` }),
  },
  shopify: {
    cfg: viaSchema({ type: "shopify", secrets: [SECRET] }),
    timed: false,
    sign: (secret) => ({ "x-shopify-hmac-sha256": b64(secret, BODY) }),
  },
  slack: {
    cfg: viaSchema({ type: "slack", secrets: [SECRET] }),
    timed: true,
    sign: (secret, ts) => ({
      "x-slack-signature": `v0=${hex(secret, `v0:${ts}:${BODY}`)}`,
      "x-slack-request-timestamp": String(ts),
    }),
  },
  standard_webhooks: {
    cfg: viaSchema({ type: "standard_webhooks", secrets: [SECRET] }),
    timed: true,
    sign: (secret, ts) => ({
      "webhook-id": "msg_1",
      "webhook-timestamp": String(ts),
      "webhook-signature": new StandardWebhook(secret).sign("msg_1", new Date(ts * 1000), BODY),
    }),
  },
  hmac: {
    cfg: viaSchema({
      type: "hmac",
      secrets: [SECRET],
      header: "x-sig",
      template: "{timestamp}.{body}",
      timestamp_header: "x-ts",
    }),
    timed: true,
    sign: (secret, ts) => ({ "x-sig": hex(secret, `${ts}.${BODY}`), "x-ts": String(ts) }),
  },
};

describe("verify engine", () => {
  it("type none always passes, whatever the request", () => {
    const none = viaSchema({ type: "none" });
    expect(verifySignature(none, req({}), NOW_MS)).toEqual({ ok: true });
    expect(verifySignature(none, req({ "stripe-signature": "junk" }, Buffer.alloc(0)), 0)).toEqual({
      ok: true,
    });
  });

  it("scheme names for the metric label are the config types", () => {
    for (const [name, { cfg }] of Object.entries(schemes)) expect(verifySchemeName(cfg)).toBe(name);
    expect(verifySchemeName(viaSchema({ type: "none" }))).toBe("none");
  });

  it("each scheme's happy path passes (the battery below is not vacuous)", () => {
    for (const { cfg, sign } of Object.values(schemes)) {
      // Standard Webhooks also reports the message id it verified (`messageId`).
      expect(verifySignature(cfg, req(sign(SECRET, NOW_S)), NOW_MS)).toMatchObject({ ok: true });
    }
  });

  it("no failure reason ever contains a secret, a signature value or body text", () => {
    for (const { cfg, sign, timed } of Object.values(schemes)) {
      const good = sign(SECRET, NOW_S);
      const wrong = sign(WRONG, NOW_S);
      const cases = [
        req(wrong),
        req(good, tampered()),
        ...(timed ? [req(sign(SECRET, NOW_S - 301)), req(sign(SECRET, NOW_S + 301))] : []),
        req({}),
        req(Object.fromEntries(Object.keys(good).map((k) => [k, `${SECRET} ${WRONG}`]))),
      ];
      const sentValues = [...Object.values(good), ...Object.values(wrong)].flatMap((v) => [
        v,
        ...v.split(/[ ,=]/),
      ]);
      const forbidden = [
        SECRET,
        WRONG,
        SECRET.slice(6),
        WRONG.slice(6),
        "evt_1",
        ...sentValues.filter((v) => v.length >= 16),
      ];
      for (const r of cases) {
        const out = verifySignature(cfg, r, NOW_MS);
        expect(out.ok).toBe(false);
        if (out.ok) continue;
        expect(out.reason.length).toBeGreaterThan(0);
        for (const value of forbidden) expect(out.reason).not.toContain(value);
      }
    }
  });

  it("never throws on hostile input", () => {
    const junk = [
      "",
      " ",
      ",",
      "=",
      "t=",
      "v1=",
      "t=1,v1=",
      "v0=",
      "v1,",
      "\u0000",
      "é".repeat(5000),
      "=".repeat(300),
    ];
    const names = [
      "stripe-signature",
      "x-hub-signature-256",
      "x-shopify-hmac-sha256",
      "x-slack-signature",
      "x-slack-request-timestamp",
      "webhook-id",
      "webhook-timestamp",
      "webhook-signature",
      "x-sig",
      "x-ts",
    ];
    for (const { cfg } of Object.values(schemes)) {
      for (const value of junk) {
        const headers = Object.fromEntries(names.map((n) => [n, value]));
        expect(() => verifySignature(cfg, req(headers, Buffer.from(value)), NOW_MS)).not.toThrow();
        expect(verifySignature(cfg, req(headers), NOW_MS).ok).toBe(false);
      }
    }
  });

  it("a hand-built config without tolerance_s fails closed on timestamps", () => {
    const cfg = { type: "slack", secrets: [SECRET] } as unknown as VerifyConfig;
    const out = verifySignature(cfg, req(schemes["slack"]!.sign(SECRET, NOW_S)), NOW_MS);
    expect(out.ok).toBe(false);
  });

  it("an unknown type fails instead of throwing", () => {
    const out = verifySignature({ type: "rsa" } as unknown as VerifyConfig, req({}), NOW_MS);
    expect(out).toEqual({ ok: false, reason: "unknown verify type rsa" });
  });

  it("per-config caching keeps two configs with different secrets apart", () => {
    const a = viaSchema({ type: "github", secrets: ["secret-a"] });
    const b = viaSchema({ type: "github", secrets: ["secret-b"] });
    const sigA = { "x-hub-signature-256": `sha256=${hex("secret-a", BODY)}` };
    expect(verifySignature(a, req(sigA), NOW_MS).ok).toBe(true);
    expect(verifySignature(b, req(sigA), NOW_MS).ok).toBe(false);
    expect(verifySignature(a, req(sigA), NOW_MS).ok).toBe(true);
  });
});

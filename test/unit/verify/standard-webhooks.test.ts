import { randomBytes } from "node:crypto";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { Webhook as SvixWebhook } from "svix";
import { describe, expect, it } from "vitest";
import { verifySignature } from "../../../src/ingest/verify/index.ts";
import { BODY, NOW_MS, expectFail, req, tampered, viaSchema } from "./helpers.ts";

const newSecret = () => `whsec_${randomBytes(24).toString("base64")}`;
const SECRET = newSecret();
const MSG_ID = "msg_2xYz0123456789";
const cfg = viaSchema({ type: "standard_webhooks", secrets: [SECRET] });

function swHeaders(secret: string, atMs = NOW_MS, id = MSG_ID, body = BODY) {
  return {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(atMs / 1000)),
    "webhook-signature": new StandardWebhook(secret).sign(id, new Date(atMs), body),
  };
}

function svixHeaders(secret: string, atMs = NOW_MS, id = MSG_ID, body = BODY) {
  return {
    "svix-id": id,
    "svix-timestamp": String(Math.floor(atMs / 1000)),
    "svix-signature": new SvixWebhook(secret).sign(id, new Date(atMs), body),
  };
}

describe("standard_webhooks verification (signatures from the standardwebhooks library)", () => {
  it("accepts a valid signature", () => {
    // A valid message reports the id its signature covered: dedup keys on it.
    expect(verifySignature(cfg, req(swHeaders(SECRET)), NOW_MS)).toEqual({ ok: true, messageId: MSG_ID });
  });

  it("accepts the worked example from the Svix / Standard Webhooks documentation", () => {
    const docs = viaSchema({
      type: "standard_webhooks",
      secrets: ["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"],
    });
    const headers = {
      "webhook-id": "msg_p5jXN8AQM9LWM0D4loKWxJek",
      "webhook-timestamp": "1614265330",
      "webhook-signature": "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
    };
    expect(verifySignature(docs, req(headers, '{"test": 2432232314}'), 1614265330_000).ok).toBe(true);
  });

  it("accepts a secret configured without the whsec_ prefix", () => {
    const bare = viaSchema({ type: "standard_webhooks", secrets: [SECRET.slice("whsec_".length)] });
    expect(verifySignature(bare, req(swHeaders(SECRET)), NOW_MS).ok).toBe(true);
  });

  it("rejects a wrong secret and a tampered body", () => {
    expectFail(verifySignature(cfg, req(swHeaders(newSecret())), NOW_MS), /no signature matched/);
    expectFail(verifySignature(cfg, req(swHeaders(SECRET), tampered()), NOW_MS), /no signature matched/);
  });

  it("binds the message id into the signature", () => {
    const headers = { ...swHeaders(SECRET), "webhook-id": "msg_other" };
    expectFail(verifySignature(cfg, req(headers), NOW_MS), /no signature matched/);
  });

  it("rejects each missing header", () => {
    for (const name of ["webhook-id", "webhook-timestamp", "webhook-signature"] as const) {
      const headers: Record<string, string> = { ...swHeaders(SECRET) };
      delete headers[name];
      expectFail(verifySignature(cfg, req(headers), NOW_MS), new RegExp(`^missing ${name} header$`));
    }
  });

  it("rejects malformed signature lists and non-numeric timestamps", () => {
    const good = swHeaders(SECRET);
    const b64 = good["webhook-signature"].slice(3);
    for (const bad of [b64, `v2,${b64}`, "v1,", "v1,***", `v1a,${b64}`]) {
      const headers = { ...good, "webhook-signature": bad };
      expectFail(verifySignature(cfg, req(headers), NOW_MS), /malformed webhook-signature/);
    }
    const headers = { ...good, "webhook-timestamp": "soon" };
    expectFail(verifySignature(cfg, req(headers), NOW_MS), /non-numeric timestamp/);
  });

  it("rejects stale (now - 301 s) and future (now + 301 s) timestamps", () => {
    expectFail(
      verifySignature(cfg, req(swHeaders(SECRET, NOW_MS - 301_000)), NOW_MS),
      /outside tolerance.*old/,
    );
    expectFail(
      verifySignature(cfg, req(swHeaders(SECRET, NOW_MS + 301_000)), NOW_MS),
      /outside tolerance.*future/,
    );
    expect(verifySignature(cfg, req(swHeaders(SECRET, NOW_MS - 300_000)), NOW_MS).ok).toBe(true);
  });

  it("rotation: a sender's space-separated list with one matching entry passes", () => {
    const mine = swHeaders(SECRET)["webhook-signature"];
    const theirs = swHeaders(newSecret())["webhook-signature"];
    const headers = { ...swHeaders(SECRET), "webhook-signature": `v1a,AAAA ${theirs} ${mine}` };
    expect(verifySignature(cfg, req(headers), NOW_MS).ok).toBe(true);
  });

  it("rotation: the second of two configured secrets, and the 8th of 8", () => {
    const other = newSecret();
    const two = viaSchema({ type: "standard_webhooks", secrets: [other, SECRET] });
    expect(verifySignature(two, req(swHeaders(SECRET)), NOW_MS).ok).toBe(true);
    const secrets = Array.from({ length: 8 }, newSecret);
    const eight = viaSchema({ type: "standard_webhooks", secrets });
    expect(verifySignature(eight, req(swHeaders(secrets[7] ?? "")), NOW_MS).ok).toBe(true);
  });

  it("fails cleanly when no configured secret decodes to any key bytes", () => {
    const empty = viaSchema({ type: "standard_webhooks", secrets: ["whsec_"] });
    expectFail(verifySignature(empty, req(swHeaders(SECRET)), NOW_MS), /no usable/);
  });
});

describe("svix headers (signatures from the svix library)", () => {
  it("accepts svix-id / svix-timestamp / svix-signature", () => {
    expect(verifySignature(cfg, req(svixHeaders(SECRET)), NOW_MS)).toEqual({ ok: true, messageId: MSG_ID });
  });

  it("svix's own verifier accepts the same headers, so the naming is the real one", () => {
    const headers = svixHeaders(SECRET, Date.now());
    expect(() => new SvixWebhook(SECRET).verify(BODY, headers)).not.toThrow();
    expect(verifySignature(cfg, req(headers), Date.now()).ok).toBe(true);
  });

  it("rejects a wrong secret, a tampered body and a stale timestamp", () => {
    expectFail(verifySignature(cfg, req(svixHeaders(newSecret())), NOW_MS), /no signature matched/);
    expectFail(verifySignature(cfg, req(svixHeaders(SECRET), tampered()), NOW_MS), /no signature matched/);
    expectFail(verifySignature(cfg, req(svixHeaders(SECRET, NOW_MS - 301_000)), NOW_MS), /outside tolerance/);
  });

  it("reports a missing signature when neither header family is present", () => {
    const { "svix-signature": _sig, ...rest } = svixHeaders(SECRET);
    expectFail(verifySignature(cfg, req(rest), NOW_MS), /^missing webhook-signature header$/);
  });
});

// Slack ships no signer library here: signatures are computed with node:crypto as Slack documents
// (`v0=` + hex HMAC-SHA256 of `v0:{timestamp}:{body}`), plus Slack's own published worked example.
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { verifySignature } from "../../../src/ingest/verify/index.ts";
import { BODY, NOW_MS, NOW_S, expectFail, req, tampered, viaSchema } from "./helpers.ts";

const SECRET = "slack-signing-secret-0123";
const cfg = viaSchema({ type: "slack", secrets: [SECRET] });

function slackHeaders(secret: string, ts: number | string = NOW_S, body: string = BODY) {
  const sig = createHmac("sha256", secret).update(`v0:${ts}:${body}`).digest("hex");
  return { "x-slack-signature": `v0=${sig}`, "x-slack-request-timestamp": String(ts) };
}

// From Slack's "Verifying requests from Slack" page.
const DOC_SECRET = "8f742231b10e8888abcd99yyyzzz85a5";
const DOC_TS = 1531420618;
const DOC_BODY =
  "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c";
const DOC_SIG = "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503";

describe("slack verification", () => {
  it("accepts Slack's documented worked example", () => {
    const docs = viaSchema({ type: "slack", secrets: [DOC_SECRET] });
    const headers = { "x-slack-signature": DOC_SIG, "x-slack-request-timestamp": String(DOC_TS) };
    expect(verifySignature(docs, req(headers, DOC_BODY), DOC_TS * 1000 + 60_000)).toEqual({ ok: true });
    expectFail(verifySignature(docs, req(headers, DOC_BODY), NOW_MS), /outside tolerance/);
  });

  it("accepts a valid signature", () => {
    expect(verifySignature(cfg, req(slackHeaders(SECRET)), NOW_MS).ok).toBe(true);
  });

  it("rejects a wrong secret and a tampered body", () => {
    expectFail(verifySignature(cfg, req(slackHeaders("other")), NOW_MS), /no signature matched/);
    expectFail(verifySignature(cfg, req(slackHeaders(SECRET), tampered()), NOW_MS), /no signature matched/);
  });

  it("binds the timestamp into the signature", () => {
    const headers = { ...slackHeaders(SECRET), "x-slack-request-timestamp": String(NOW_S + 1) };
    expectFail(verifySignature(cfg, req(headers), NOW_MS), /no signature matched/);
  });

  it("rejects missing headers", () => {
    const { "x-slack-signature": sig, "x-slack-request-timestamp": ts } = slackHeaders(SECRET);
    expectFail(
      verifySignature(cfg, req({ "x-slack-request-timestamp": ts }), NOW_MS),
      /^missing x-slack-signature/,
    );
    expectFail(
      verifySignature(cfg, req({ "x-slack-signature": sig }), NOW_MS),
      /^missing x-slack-request-timestamp/,
    );
  });

  it("rejects malformed signature headers and non-numeric timestamps", () => {
    const good = slackHeaders(SECRET);
    const hex = good["x-slack-signature"].slice(3);
    for (const bad of [hex, `v1=${hex}`, "v0=", "v0=xyz"]) {
      const headers = { ...good, "x-slack-signature": bad };
      expectFail(verifySignature(cfg, req(headers), NOW_MS), /malformed x-slack-signature/);
    }
    for (const ts of ["abc", "1.5", "-1", " 1750000000"]) {
      expectFail(verifySignature(cfg, req(slackHeaders(SECRET, ts)), NOW_MS), /non-numeric timestamp/);
    }
  });

  it("rejects stale (now - 301 s) and future (now + 301 s) timestamps", () => {
    expectFail(verifySignature(cfg, req(slackHeaders(SECRET, NOW_S - 301)), NOW_MS), /outside tolerance/);
    expectFail(verifySignature(cfg, req(slackHeaders(SECRET, NOW_S + 301)), NOW_MS), /outside tolerance/);
    expect(verifySignature(cfg, req(slackHeaders(SECRET, NOW_S - 299)), NOW_MS).ok).toBe(true);
  });

  it("rotation: the second of two secrets, and the 8th of 8", () => {
    const two = viaSchema({ type: "slack", secrets: ["new", SECRET] });
    expect(verifySignature(two, req(slackHeaders(SECRET)), NOW_MS).ok).toBe(true);
    const eight = viaSchema({ type: "slack", secrets: Array.from({ length: 8 }, (_, i) => `s${i}`) });
    expect(verifySignature(eight, req(slackHeaders("s7")), NOW_MS).ok).toBe(true);
  });
});

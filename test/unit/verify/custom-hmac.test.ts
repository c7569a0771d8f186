// The custom `hmac` scheme, signed here with node:crypto the way a provider documenting such a scheme would.
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { verifySignature } from "../../../src/ingest/verify/index.ts";
import { BODY, NOW_MS, NOW_S, expectFail, req, tampered, viaSchema } from "./helpers.ts";

const SECRET = "custom-secret-xyz";

function mac(hash: string, secret: string, data: string | Buffer, enc: "hex" | "base64"): string {
  return createHmac(hash, secret).update(data).digest(enc);
}

describe("custom hmac verification", () => {
  it("defaults: sha256, hex, template {body}, no prefix; header name lower-cased by the schema", () => {
    const cfg = viaSchema({ type: "hmac", secrets: [SECRET], header: "X-Signature" });
    const headers = { "x-signature": mac("sha256", SECRET, BODY, "hex") };
    expect(verifySignature(cfg, req(headers), NOW_MS)).toEqual({ ok: true });
    expectFail(verifySignature(cfg, req(headers, tampered()), NOW_MS), /no signature matched/);
    expectFail(verifySignature(cfg, req({}), NOW_MS), /^missing x-signature header$/);
    expectFail(verifySignature(cfg, req({ "x-signature": "nothex" }), NOW_MS), /malformed x-signature/);
  });

  it("sha512 + base64 + prefix + timestamp template", () => {
    const cfg = viaSchema({
      type: "hmac",
      secrets: ["old-secret", SECRET],
      header: "X-Acme-Signature",
      template: "{timestamp}:{body}",
      hash: "sha512",
      encoding: "base64",
      prefix: "sha512=",
      timestamp_header: "X-Acme-Timestamp",
    });
    const sign = (ts: number | string, body: string | Buffer = BODY, secret = SECRET) => ({
      "x-acme-signature": `sha512=${mac("sha512", secret, Buffer.concat([Buffer.from(`${ts}:`), Buffer.from(body)]), "base64")}`,
      "x-acme-timestamp": String(ts),
    });

    expect(verifySignature(cfg, req(sign(NOW_S)), NOW_MS).ok).toBe(true); // second secret of two
    expectFail(verifySignature(cfg, req(sign(NOW_S, BODY, "wrong")), NOW_MS), /no signature matched/);
    expectFail(verifySignature(cfg, req(sign(NOW_S), tampered()), NOW_MS), /no signature matched/);
    expectFail(verifySignature(cfg, req(sign(NOW_S - 301)), NOW_MS), /outside tolerance/);
    expectFail(verifySignature(cfg, req(sign(NOW_S + 301)), NOW_MS), /outside tolerance/);
    expectFail(verifySignature(cfg, req(sign("later")), NOW_MS), /non-numeric timestamp/);

    const { "x-acme-timestamp": _ts, ...noTimestamp } = sign(NOW_S);
    expectFail(verifySignature(cfg, req(noTimestamp), NOW_MS), /^missing x-acme-timestamp header$/);

    const swapped = { ...sign(NOW_S), "x-acme-timestamp": String(NOW_S - 1) };
    expectFail(verifySignature(cfg, req(swapped), NOW_MS), /no signature matched/);

    const noPrefix = { ...sign(NOW_S) };
    noPrefix["x-acme-signature"] = noPrefix["x-acme-signature"].slice("sha512=".length);
    expectFail(verifySignature(cfg, req(noPrefix), NOW_MS), /malformed x-acme-signature/);

    const hexInstead = {
      ...sign(NOW_S),
      "x-acme-signature": `sha512=${mac("sha512", SECRET, `${NOW_S}:${BODY}`, "hex")}`,
    };
    expect(verifySignature(cfg, req(hexInstead), NOW_MS).ok).toBe(false);
  });

  it("sha1 + hex, with literal text around the placeholders", () => {
    const cfg = viaSchema({
      type: "hmac",
      secrets: [SECRET],
      header: "x-sig",
      template: "v=1&ts={timestamp}&payload={body}&end",
      hash: "sha1",
      timestamp_header: "x-ts",
    });
    const headers = {
      "x-sig": mac("sha1", SECRET, `v=1&ts=${NOW_S}&payload=${BODY}&end`, "hex"),
      "x-ts": String(NOW_S),
    };
    expect(verifySignature(cfg, req(headers), NOW_MS).ok).toBe(true);
  });

  it("a configured timestamp_header must be present and fresh even if the template omits {timestamp}", () => {
    const cfg = viaSchema({ type: "hmac", secrets: [SECRET], header: "x-sig", timestamp_header: "x-ts" });
    const sig = mac("sha256", SECRET, BODY, "hex");
    expectFail(verifySignature(cfg, req({ "x-sig": sig }), NOW_MS), /missing x-ts header/);
    expectFail(
      verifySignature(cfg, req({ "x-sig": sig, "x-ts": String(NOW_S - 301) }), NOW_MS),
      /outside tolerance/,
    );
    expect(verifySignature(cfg, req({ "x-sig": sig, "x-ts": String(NOW_S) }), NOW_MS).ok).toBe(true);
  });

  it("a {timestamp} template without timestamp_header fails with a config reason, not a throw", () => {
    const cfg = viaSchema({
      type: "hmac",
      secrets: [SECRET],
      header: "x-sig",
      template: "{timestamp}.{body}",
    });
    const headers = { "x-sig": mac("sha256", SECRET, `.${BODY}`, "hex") };
    expectFail(verifySignature(cfg, req(headers), NOW_MS), /no timestamp_header/);
  });

  it("the 8th of 8 secrets works", () => {
    const secrets = Array.from({ length: 8 }, (_, i) => `k${i}`);
    const cfg = viaSchema({ type: "hmac", secrets, header: "x-sig", encoding: "base64" });
    expect(verifySignature(cfg, req({ "x-sig": mac("sha256", "k7", BODY, "base64") }), NOW_MS).ok).toBe(true);
  });
});

// Shopify ships no signer library here, so signatures are computed with node:crypto exactly as Shopify
// documents: base64 of HMAC-SHA256 over the raw body, keyed with the app's client secret.
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { verifySignature } from "../../../src/ingest/verify/index.ts";
import { BODY, NOW_MS, expectFail, req, tampered, viaSchema } from "./helpers.ts";

const SECRET = "shpss_client_secret_0123";
const cfg = viaSchema({ type: "shopify", secrets: [SECRET] });

function shopifySign(secret: string, body: string | Buffer = BODY): string {
  return createHmac("sha256", secret).update(body).digest("base64");
}

describe("shopify verification", () => {
  it("accepts a valid signature", () => {
    expect(verifySignature(cfg, req({ "x-shopify-hmac-sha256": shopifySign(SECRET) }), NOW_MS)).toEqual({
      ok: true,
    });
  });

  it('accepts a fixed vector (shop-secret over {"id":1}, cross-checked with Python\'s hmac/base64)', () => {
    const fixed = viaSchema({ type: "shopify", secrets: ["shop-secret"] });
    const sig = "plW8VGqq0nDMIEhDqaNNW99asdUCy7EIqLZVcQwtAZ0=";
    expect(verifySignature(fixed, req({ "x-shopify-hmac-sha256": sig }, '{"id":1}'), NOW_MS).ok).toBe(true);
  });

  it("verifies over raw bytes, including bytes that are not valid UTF-8", () => {
    const raw = Buffer.from([0x7b, 0xff, 0xfe, 0x00, 0x7d]);
    expect(
      verifySignature(cfg, req({ "x-shopify-hmac-sha256": shopifySign(SECRET, raw) }, raw), NOW_MS).ok,
    ).toBe(true);
  });

  it("rejects a wrong secret and a tampered body", () => {
    const wrong = req({ "x-shopify-hmac-sha256": shopifySign("other") });
    expectFail(verifySignature(cfg, wrong, NOW_MS), /no signature matched/);
    const bent = req({ "x-shopify-hmac-sha256": shopifySign(SECRET) }, tampered());
    expectFail(verifySignature(cfg, bent, NOW_MS), /no signature matched/);
  });

  it("rejects a hex digest where base64 is expected", () => {
    const hex = createHmac("sha256", SECRET).update(BODY).digest("hex");
    expect(verifySignature(cfg, req({ "x-shopify-hmac-sha256": hex }), NOW_MS).ok).toBe(false);
  });

  it("rejects missing and malformed headers", () => {
    expectFail(verifySignature(cfg, req({}), NOW_MS), /^missing x-shopify-hmac-sha256 header$/);
    for (const bad of ["not base64!", "a", "====", `${shopifySign(SECRET)}%`]) {
      expectFail(
        verifySignature(cfg, req({ "x-shopify-hmac-sha256": bad }), NOW_MS),
        /malformed x-shopify-hmac/,
      );
    }
  });

  it("rotation: the second of two secrets, and the 8th of 8", () => {
    const two = viaSchema({ type: "shopify", secrets: ["new", SECRET] });
    expect(verifySignature(two, req({ "x-shopify-hmac-sha256": shopifySign(SECRET) }), NOW_MS).ok).toBe(true);
    const eight = viaSchema({ type: "shopify", secrets: Array.from({ length: 8 }, (_, i) => `s${i}`) });
    expect(verifySignature(eight, req({ "x-shopify-hmac-sha256": shopifySign("s7") }), NOW_MS).ok).toBe(true);
  });
});

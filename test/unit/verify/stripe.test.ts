import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { verifySignature } from "../../../src/ingest/verify/index.ts";
import { BODY, NOW_MS, NOW_S, expectFail, req, tampered, viaSchema } from "./helpers.ts";

const SECRET = "whsec_test_secret_primary_0123456789";
const OLD = "whsec_test_secret_previous_abcdefgh";
const cfg = viaSchema({ type: "stripe", secrets: [SECRET] });

function header(secret: string, timestamp = NOW_S, payload = BODY): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });
}

describe("stripe verification (signatures from the stripe library)", () => {
  it("accepts a valid signature and checks tolerance defaults to 300 s", () => {
    expect(cfg).toMatchObject({ type: "stripe", tolerance_s: 300 });
    expect(verifySignature(cfg, req({ "stripe-signature": header(SECRET) }), NOW_MS)).toEqual({ ok: true });
  });

  it("agrees with stripe's own verifier on the same header", () => {
    const h = header(SECRET, Math.floor(Date.now() / 1000));
    expect(() => Stripe.webhooks.constructEvent(BODY, h, SECRET)).not.toThrow();
    expect(verifySignature(cfg, req({ "stripe-signature": h }), Date.now()).ok).toBe(true);
  });

  it("rejects a wrong secret", () => {
    const out = verifySignature(cfg, req({ "stripe-signature": header("whsec_wrong") }), NOW_MS);
    expectFail(out, /no signature matched/);
  });

  it("rejects a body with one byte changed", () => {
    const out = verifySignature(cfg, req({ "stripe-signature": header(SECRET) }, tampered()), NOW_MS);
    expectFail(out, /no signature matched/);
  });

  it("rejects a missing header", () => {
    expectFail(verifySignature(cfg, req({}), NOW_MS), /^missing stripe-signature header$/);
    expectFail(verifySignature(cfg, req({ "stripe-signature": "" }), NOW_MS), /missing stripe-signature/);
  });

  it("rejects malformed headers", () => {
    const v1 = header(SECRET).split(",")[1] ?? "";
    for (const bad of ["garbage", `t=${NOW_S}`, v1, `t=${NOW_S},v1=not-hex`, `t=${NOW_S},v0=abcd`]) {
      expectFail(
        verifySignature(cfg, req({ "stripe-signature": bad }), NOW_MS),
        /malformed stripe-signature/,
      );
    }
  });

  it("rejects a non-numeric timestamp", () => {
    const h = header(SECRET).replace(/^t=\d+/, "t=12ab");
    expectFail(verifySignature(cfg, req({ "stripe-signature": h }), NOW_MS), /non-numeric timestamp/);
  });

  it("rejects stale (now - 301 s) and future (now + 301 s) timestamps, accepts the 300 s edge", () => {
    const stale = header(SECRET, NOW_S - 301);
    const future = header(SECRET, NOW_S + 301);
    expectFail(verifySignature(cfg, req({ "stripe-signature": stale }), NOW_MS), /outside tolerance.*old/);
    expectFail(
      verifySignature(cfg, req({ "stripe-signature": future }), NOW_MS),
      /outside tolerance.*future/,
    );
    expect(verifySignature(cfg, req({ "stripe-signature": header(SECRET, NOW_S - 300) }), NOW_MS).ok).toBe(
      true,
    );
    expect(verifySignature(cfg, req({ "stripe-signature": header(SECRET, NOW_S + 300) }), NOW_MS).ok).toBe(
      true,
    );
  });

  it("honours a custom tolerance", () => {
    const tight = viaSchema({ type: "stripe", secrets: [SECRET], tolerance_s: 10 });
    expectFail(
      verifySignature(tight, req({ "stripe-signature": header(SECRET, NOW_S - 11) }), NOW_MS),
      /outside tolerance/,
    );
  });

  it("rotation: a signature by the second of two configured secrets passes", () => {
    const rotated = viaSchema({ type: "stripe", secrets: [SECRET, OLD] });
    expect(verifySignature(rotated, req({ "stripe-signature": header(OLD) }), NOW_MS).ok).toBe(true);
    expectFail(verifySignature(cfg, req({ "stripe-signature": header(OLD) }), NOW_MS), /no signature/);
  });

  it("rotation: any of several v1 entries in the header may match (Stripe rolling a secret)", () => {
    const sigOf = (s: string) =>
      header(s)
        .split(",")
        .find((p) => p.startsWith("v1=")) ?? "";
    const h = `t=${NOW_S},${sigOf("whsec_other")},${sigOf(SECRET)},v0=deadbeef`;
    expect(verifySignature(cfg, req({ "stripe-signature": h }), NOW_MS).ok).toBe(true);
  });

  it("the 8th of 8 secrets works", () => {
    const secrets = Array.from({ length: 8 }, (_, i) => `whsec_rot_${i}`);
    const eight = viaSchema({ type: "stripe", secrets });
    expect(verifySignature(eight, req({ "stripe-signature": header("whsec_rot_7") }), NOW_MS).ok).toBe(true);
  });
});

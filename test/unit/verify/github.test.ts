import { sign } from "@octokit/webhooks-methods";
import { describe, expect, it } from "vitest";
import { verifySignature } from "../../../src/ingest/verify/index.ts";
import { BODY, NOW_MS, expectFail, req, tampered, viaSchema } from "./helpers.ts";

const SECRET = "gh-secret-primary";
const cfg = viaSchema({ type: "github", secrets: [SECRET] });

describe("github verification (signatures from @octokit/webhooks-methods)", () => {
  it("accepts a valid signature", async () => {
    const sig = await sign(SECRET, BODY);
    expect(verifySignature(cfg, req({ "x-hub-signature-256": sig }), NOW_MS)).toEqual({ ok: true });
  });

  it("accepts the worked example from GitHub's documentation", () => {
    const docs = viaSchema({ type: "github", secrets: ["It's a Secret to Everybody"] });
    const sig = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17";
    expect(verifySignature(docs, req({ "x-hub-signature-256": sig }, "Hello, World!"), NOW_MS).ok).toBe(true);
  });

  it("has no timestamp: an old delivery's signature still verifies", async () => {
    const sig = await sign(SECRET, BODY);
    expect(verifySignature(cfg, req({ "x-hub-signature-256": sig }), 0).ok).toBe(true);
  });

  it("rejects a wrong secret and a tampered body", async () => {
    const wrong = await sign("not-the-secret", BODY);
    expectFail(verifySignature(cfg, req({ "x-hub-signature-256": wrong }), NOW_MS), /no signature matched/);
    const good = await sign(SECRET, BODY);
    const out = verifySignature(cfg, req({ "x-hub-signature-256": good }, tampered()), NOW_MS);
    expectFail(out, /no signature matched/);
  });

  it("rejects a missing header (the legacy sha1 header alone is not enough)", () => {
    expectFail(verifySignature(cfg, req({}), NOW_MS), /^missing x-hub-signature-256 header$/);
    expectFail(
      verifySignature(cfg, req({ "x-hub-signature": "sha1=abcd" }), NOW_MS),
      /missing x-hub-signature-256/,
    );
  });

  it("rejects malformed headers", async () => {
    const sig = await sign(SECRET, BODY);
    const hex = sig.slice("sha256=".length);
    for (const bad of [hex, `sha1=${hex}`, "sha256=", "sha256=zz", `${sig}x`, `sha256=${hex.slice(1)}`]) {
      expectFail(
        verifySignature(cfg, req({ "x-hub-signature-256": bad }), NOW_MS),
        /malformed x-hub-signature-256/,
      );
    }
  });

  it("rejects a truncated but well-formed digest without throwing", async () => {
    const sig = await sign(SECRET, BODY);
    const out = verifySignature(cfg, req({ "x-hub-signature-256": sig.slice(0, -2) }), NOW_MS);
    expectFail(out, /no signature matched/);
  });

  it("rotation: the second of two secrets, and the 8th of 8", async () => {
    const two = viaSchema({ type: "github", secrets: ["new-secret", SECRET] });
    expect(verifySignature(two, req({ "x-hub-signature-256": await sign(SECRET, BODY) }), NOW_MS).ok).toBe(
      true,
    );
    const secrets = Array.from({ length: 8 }, (_, i) => `gh-rot-${i}`);
    const eight = viaSchema({ type: "github", secrets });
    const sig = await sign("gh-rot-7", BODY);
    expect(verifySignature(eight, req({ "x-hub-signature-256": sig }), NOW_MS).ok).toBe(true);
  });
});

// Signed claim URLs: what `exp` and `sig` are, how long they last, and what does not verify.
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { configSchema } from "../../src/config/schema.ts";
import { ClaimSigner } from "../../src/domain/claim-signature.ts";
import { claimUrlTtlS } from "../../src/runtime/claim-key.ts";

const KEY = "k".repeat(40);
const NOW_MS = 1_800_000_000_000;

describe("ClaimSigner", () => {
  const signer = new ClaimSigner(KEY, 3600, () => NOW_MS);

  it("appends exp = now + ttl and a base64url HMAC-SHA256 of id.exp", () => {
    const url = new URL(signer.signUrl("hk_1", "https://gw.example/v1/claims/hk_1"));
    const exp = url.searchParams.get("exp")!;
    expect(Number(exp)).toBe(NOW_MS / 1000 + 3600);
    expect(url.searchParams.get("sig")).toBe(
      createHmac("sha256", KEY).update(`hk_1.${exp}`).digest("base64url"),
    );
    expect(signer.verify("hk_1", exp, url.searchParams.get("sig")!)).toBe(true);
  });

  it("refuses other ids, other exps, expired URLs and malformed input without throwing", () => {
    const url = new URL(signer.signUrl("hk_1", "https://gw.example/v1/claims/hk_1"));
    const exp = url.searchParams.get("exp")!;
    const sig = url.searchParams.get("sig")!;
    expect(signer.verify("hk_2", exp, sig)).toBe(false);
    expect(signer.verify("hk_1", String(Number(exp) + 1), sig)).toBe(false);
    const later = new ClaimSigner(KEY, 3600, () => NOW_MS + 3601_000);
    expect(later.verify("hk_1", exp, sig)).toBe(false);
    for (const [e, s] of [
      [undefined, sig],
      [exp, undefined],
      ["-1", sig],
      ["1e12", sig],
      [exp, sig.slice(1)],
      [exp, `${sig}AA`],
      [exp, "!!!"],
    ] as const) {
      expect(signer.verify("hk_1", e, s)).toBe(false);
    }
  });
});

describe("claimUrlTtlS", () => {
  const cfg = (extra: Record<string, unknown>) =>
    configSchema().parse({
      sinks: {},
      sources: {},
      retention_s: 1000,
      dispatch: { retry: { max_elapsed_ms: 1_000_000 } },
      ...extra,
    });
  it("defaults to retention_s and never exceeds it", () => {
    expect(claimUrlTtlS(cfg({}))).toBe(1000);
    const retry = { max_elapsed_ms: 1_000_000 };
    expect(claimUrlTtlS(cfg({ dispatch: { retry, claim_url_ttl_s: 60 } }))).toBe(60);
    expect(claimUrlTtlS(cfg({ dispatch: { retry, claim_url_ttl_s: 5000 } }))).toBe(1000);
  });

  it("wants a claim signing key of at least 32 characters", () => {
    expect(() => cfg({ http: { claim_signing_key: "short" } })).toThrow(/32/);
  });
});

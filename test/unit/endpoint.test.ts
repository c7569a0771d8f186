// Endpoint rules without Redis: which secrets sign, how rotation ages them out, and which changes bump the
// version a delivery worker compares before disabling.
import { describe, expect, it } from "vitest";
import {
  type Endpoint,
  MAX_PREVIOUS_SECRETS,
  SECRET_OVERLAP_MS,
  liveSecrets,
  patchEndpoint,
  rotatedSecrets,
  secretProblem,
} from "../../src/domain/endpoint.ts";
import { generateSecret } from "../../src/domain/signing.ts";
import { endpointFixture } from "../support/endpoint-fixture.ts";

const base: Endpoint = endpointFixture({
  id: "ep_00000000000000000000000000" as Endpoint["id"],
  headers: { "x-a": "1" },
  secret: "whsec_current",
});

describe("secretProblem", () => {
  it("accepts whsec_ secrets of 24 to 64 bytes", () => {
    for (const n of [24, 32, 64]) expect(secretProblem(generateSecret(n))).toBeUndefined();
  });
  it("refuses other lengths, other prefixes and non-base64", () => {
    expect(secretProblem(generateSecret(23))).toMatch(/24–64 bytes, not 23/);
    expect(secretProblem(generateSecret(65))).toMatch(/not 65/);
    expect(secretProblem(generateSecret(32).slice("whsec_".length))).toMatch(/whsec_/);
    expect(secretProblem("whsec_!!!")).toMatch(/base64/);
    expect(secretProblem("whsec_")).toMatch(/empty/);
  });
});

describe("secret rotation", () => {
  it("keeps the rotated-out secret signing for 24 h", () => {
    const now = 10_000;
    const rotated = rotatedSecrets(base, "whsec_next", now);
    expect(rotated.secret).toBe("whsec_next");
    expect(rotated.previous_secrets).toEqual([
      { secret: "whsec_current", expires_at: now + SECRET_OVERLAP_MS },
    ]);
    expect(liveSecrets(rotated, now)).toEqual(["whsec_next", "whsec_current"]);
    expect(liveSecrets(rotated, now + SECRET_OVERLAP_MS - 1)).toEqual(["whsec_next", "whsec_current"]);
    expect(liveSecrets(rotated, now + SECRET_OVERLAP_MS)).toEqual(["whsec_next"]);
  });

  it("drops expired secrets and keeps at most ten, newest first", () => {
    let e: Pick<Endpoint, "secret" | "previous_secrets"> = base;
    for (let i = 0; i < 15; i++) e = rotatedSecrets(e, `whsec_${i}`, 1000 + i);
    expect(e.previous_secrets).toHaveLength(MAX_PREVIOUS_SECRETS);
    expect(e.previous_secrets[0]?.secret).toBe("whsec_13");
    expect(e.previous_secrets[9]?.secret).toBe("whsec_4");
    const later = rotatedSecrets(e, "whsec_late", 1000 + 14 + SECRET_OVERLAP_MS);
    expect(later.previous_secrets.map((p) => p.secret)).toEqual(["whsec_14"]);
  });

  it("rotating back to a previous secret does not list it twice", () => {
    const once = rotatedSecrets(base, "whsec_b", 1);
    const back = rotatedSecrets(once, "whsec_current", 2);
    expect(liveSecrets(back, 3)).toEqual(["whsec_current", "whsec_b"]);
  });
});

describe("patchEndpoint", () => {
  it("bumps the version for url, event_types, headers and disabled, not for the rest", () => {
    expect(patchEndpoint(base, { url: "https://example.com/v2" }, 2000).version).toBe(2);
    expect(patchEndpoint(base, { event_types: ["order.paid"] }, 2000).version).toBe(2);
    expect(patchEndpoint(base, { headers: { "x-a": "2" } }, 2000).version).toBe(2);
    expect(patchEndpoint(base, { disabled: true }, 2000).version).toBe(2);
    const described = patchEndpoint(base, { description: "d", rate_limit_per_s: 5 }, 2000);
    expect(described).toMatchObject({ version: 1, updated_at: 2000, description: "d", rate_limit_per_s: 5 });
  });

  it("changes nothing (not even updated_at) when nothing differs", () => {
    const same = patchEndpoint(
      base,
      { url: base.url, event_types: ["order.*"], headers: { "X-A": "1" } },
      2000,
    );
    expect(same).toBe(base);
    expect(patchEndpoint(base, { disabled: false }, 2000)).toBe(base);
  });

  it("records a disable, and re-enabling clears it and the failure clock", () => {
    const off = patchEndpoint(base, { disabled: true }, 2000);
    expect(off).toMatchObject({
      disabled: true,
      disabled_reason: "disabled by an operator",
      disabled_at: 2000,
    });
    const failing = { ...off, failing_since: 1500 };
    const on = patchEndpoint(failing, { disabled: false }, 3000);
    expect(on).toMatchObject({ disabled: false, disabled_reason: undefined, version: 3 });
    expect(on.disabled_at).toBeUndefined();
    expect(on.failing_since).toBeUndefined();
  });

  it("clears optional fields with null and dedups patterns", () => {
    const withBoth = { ...base, description: "d", rate_limit_per_s: 3 };
    expect(patchEndpoint(withBoth, { description: null, rate_limit_per_s: null }, 2000)).toMatchObject({
      description: undefined,
      rate_limit_per_s: undefined,
    });
    expect(patchEndpoint(base, { event_types: ["a", "b", "a"] }, 2000).event_types).toEqual(["a", "b"]);
  });
});

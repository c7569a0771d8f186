// secrets_by_tenant: a request verifies only under its own tenant's secrets, and the per-tenant view a
// verifier sees is built once per configured tenant (its key cache depends on it), never for others.
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { verifySignature } from "../../../src/ingest/verify/index.ts";
import { schemeConfigFor } from "../../../src/ingest/verify/scheme-config.ts";
import { configSchema } from "../../../src/config/schema.ts";
import { BODY, expectFail, req } from "./helpers.ts";

const verify = configSchema().parse({
  sinks: { audit: { type: "log" } },
  sources: {
    src: {
      tenants: ["a", "b", "constructor"],
      verify: { type: "github", secrets_by_tenant: { a: ["sa"], b: ["sb"], constructor: ["sc"] } },
      sinks: ["audit"],
      allow_non_durable: true,
    },
  },
}).sources.src!.verify;

const secretsOf = (tenant: string): readonly string[] | undefined => {
  const view = schemeConfigFor(verify, tenant);
  return view !== undefined && "secrets" in view ? view.secrets : undefined;
};

const signed = (secret: string) =>
  req({ "x-hub-signature-256": `sha256=${createHmac("sha256", secret).update(BODY).digest("hex")}` });

describe("secrets_by_tenant", () => {
  it("verifies a request under its own tenant's secrets only", () => {
    expect(verifySignature(verify, signed("sb"), 0, "b")).toEqual({ ok: true });
    expectFail(verifySignature(verify, signed("sb"), 0, "a"), /no signature matched/);
    expectFail(
      verifySignature(verify, signed("sb"), 0, undefined),
      /no github secrets configured for this tenant/,
    );
    expectFail(verifySignature(verify, signed("sb"), 0, "zz"), /no github secrets configured/);
  });

  it("builds one view per configured tenant, and none for a tenant it does not know", () => {
    expect(schemeConfigFor(verify, "a")).toBe(schemeConfigFor(verify, "a"));
    expect(secretsOf("a")).toEqual(["sa"]);
    expect(secretsOf("constructor")).toEqual(["sc"]);
    expect(schemeConfigFor(verify, "toString")).toBeUndefined();
    expect(schemeConfigFor(verify, "__proto__")).toBeUndefined();
  });
});

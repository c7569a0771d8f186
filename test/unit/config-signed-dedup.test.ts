// The boot checks that keep dedup on what a signature covers and per-tenant secrets bound to their
// tenants: a pair that cannot agree is refused naming its key, an unsigned header dedup is a warning,
// and secrets_by_tenant must cover exactly the source's tenants, each with secrets of its own.
import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "../../src/config/load.ts";
import { configWarnings } from "../../src/config/warnings.ts";

const ALL = { api: true, dispatch: true };

function config(source: string) {
  return parseConfig(
    `
http: { metrics_port: 9464 }
sinks: { out: { type: http, url: "http://localhost:9000/in" } }
sources: { s: { ${source}, sinks: [out] } }
`,
    "x.yaml",
    {},
  );
}

function refusal(source: string): string {
  try {
    config(source);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).message;
  }
  throw new Error("the config was accepted");
}

const SW = `verify: { type: standard_webhooks, secrets: ["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"] }`;
const GH = `verify: { type: github, secrets: [gh-secret] }`;

describe("dedup against what the signature covers", () => {
  it("refuses a standard_webhooks source deduplicated on a header its signature does not cover", () => {
    for (const dedup of ["github", "shopify", "{ header: x-request-id }"]) {
      expect(refusal(`${SW}, dedup: ${dedup}`)).toMatch(
        /sources\.s\.dedup: keys on [a-z-]+, which a standard_webhooks signature does not cover/,
      );
    }
  });

  it("accepts the ids standard_webhooks signs, the body and body fields, without a warning", () => {
    for (const dedup of [
      "standard_webhooks",
      "svix",
      "{ header: webhook-id }",
      "{ header: svix-id }",
      "body",
      "stripe",
      "{ json: data.id }",
    ]) {
      expect([dedup, configWarnings(config(`${SW}, dedup: ${dedup}`), ALL)]).toEqual([dedup, []]);
    }
  });

  it("warns, naming the key and the window, when a body-only scheme dedups on an unsigned header", () => {
    expect(configWarnings(config(`${GH}, dedup: github`), ALL)).toEqual([
      {
        path: "sources.s.dedup",
        message: expect.stringMatching(
          /keys on x-github-delivery, which a github signature does not cover: .* indefinitely .* body, or a \{ json: … \} id field/,
        ),
      },
    ]);
    const stripe = config(`verify: { type: stripe, secrets: [s] }, dedup: svix`);
    expect(configWarnings(stripe, ALL)[0]?.message).toMatch(/for 300 s \(the timestamp tolerance\)/);
    expect(configWarnings(config(`${GH}, dedup: body`), ALL)).toEqual([]);
    expect(configWarnings(config(`verify: { type: none }, dedup: github`), ALL)).toEqual([]);
  });
});

describe("secrets_by_tenant", () => {
  it("is accepted when it covers exactly the source's tenants", () => {
    const c = config(
      `tenant: a, tenants: [b], verify: { type: github, secrets_by_tenant: { a: [sa], b: [sb1, sb2] } }`,
    );
    expect(c.sources.s?.verify).toMatchObject({ secrets_by_tenant: { a: ["sa"], b: ["sb1", "sb2"] } });
  });

  it("refuses both or neither of secrets and secrets_by_tenant", () => {
    expect(
      refusal(`tenants: [a], verify: { type: github, secrets: [x], secrets_by_tenant: { a: [y] } }`),
    ).toMatch(/sources\.s\.verify: give exactly one of secrets and secrets_by_tenant/);
    expect(refusal(`verify: { type: github }`)).toMatch(/sources\.s\.verify: give exactly one/);
  });

  it("refuses a tenant the source does not accept, a tenant without secrets, and a secret two tenants share", () => {
    expect(refusal(`tenants: [a], verify: { type: github, secrets_by_tenant: { a: [x], z: [y] } }`)).toMatch(
      /sources\.s\.verify\.secrets_by_tenant\.z: "z" is not a tenant of this source/,
    );
    expect(refusal(`tenants: [a, b], verify: { type: github, secrets_by_tenant: { a: [x] } }`)).toMatch(
      /sources\.s\.verify\.secrets_by_tenant: no secrets for tenant "b"/,
    );
    expect(
      refusal(`tenants: [a, b], verify: { type: github, secrets_by_tenant: { a: [x], b: [y, x] } }`),
    ).toMatch(/sources\.s\.verify\.secrets_by_tenant\.b\[1\]: the same secret as tenant "a"/);
  });
});

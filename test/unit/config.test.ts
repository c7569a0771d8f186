import { describe, expect, it } from "vitest";
import { BUNDLED_CONFIG, ConfigError, loadConfig, parseConfig } from "../../src/config/load.ts";
import { interpolate } from "../../src/config/interpolate.ts";
import { redact } from "../../src/config/redact.ts";
import { nodeServerOptions } from "../../src/runtime/http-server.ts";

describe("interpolation", () => {
  it("reads ${VAR} and ${VAR:-default} from the environment", () => {
    expect(interpolate("a: ${A}\nb: ${B:-two}\nc: ${C:-x}", { A: "one", C: "three" })).toBe(
      "a: one\nb: two\nc: three",
    );
  });

  it("stops on an unset variable without default, naming it and the line", () => {
    expect(() => interpolate("x: 1\ny: ${NOPE}", {})).toThrow(/NOPE is not set \(line 2\)/);
  });

  it("leaves comments and escaped references alone", () => {
    expect(interpolate("# ${NOPE}\nx: $${LIT}", {})).toBe("# ${NOPE}\nx: ${LIT}");
  });
});

describe("validation", () => {
  const valid = `
sinks: { out: { type: http, url: "http://localhost:9000/in" } }
sources: { s: { verify: { type: none }, sinks: [out] } }
`;
  it("fills defaults", () => {
    const c = parseConfig(valid, "x.yaml", {});
    expect(c.dispatch.retry.max_attempts).toBe(25);
    expect(c.sources.s?.dedup_ttl_s).toBe(259_200);
    expect(c.http.max_body_bytes).toBe(1_048_576);
  });

  it("bounds inbound HTTP by default: 15 s per request, 10 s for headers, 10000 connections", () => {
    const { http } = parseConfig(valid, "x.yaml", {});
    expect(http).toMatchObject({
      request_timeout_ms: 15_000,
      headers_timeout_ms: 10_000,
      max_connections: 10_000,
    });
    expect(nodeServerOptions(http)).toMatchObject({ requestTimeout: 15_000, headersTimeout: 10_000 });
    // Node checks the timeouts only this often: a 30 s default would stretch each by as much.
    expect(nodeServerOptions(http).connectionsCheckingInterval).toBeLessThanOrEqual(1000);
    expect(() =>
      parseConfig(`${valid}http: { request_timeout_ms: 1000, headers_timeout_ms: 2000 }\n`, "x.yaml", {}),
    ).toThrow(/http\.headers_timeout_ms/);
  });

  it("names the key path of an invalid value", () => {
    const bad = valid.replace("http://localhost:9000/in", "ftp://nope");
    try {
      parseConfig(bad, "x.yaml", {});
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toContain("sinks.out.url");
    }
  });

  it("rejects a source pointing at an unknown sink", () => {
    expect(() => parseConfig(valid.replace("[out]", "[out, ghost]"), "x.yaml", {})).toThrow(
      /sources\.s\.sinks\.\[1\]: unknown sink "ghost"/,
    );
  });

  it("refuses a source whose only sinks are non-durable unless it allows it", () => {
    const logOnly = `sinks: { audit: { type: log } }\nsources: { s: { verify: { type: none }, sinks: [audit] } }`;
    expect(() => parseConfig(logOnly, "x.yaml", {})).toThrow(/non-durable/);
    expect(
      parseConfig(logOnly.replace("[audit]", "[audit], allow_non_durable: true"), "x.yaml", {}).sources.s
        ?.allow_non_durable,
    ).toBe(true);
  });

  it("caps secrets at 8", () => {
    const nine = JSON.stringify(Array.from({ length: 9 }, (_, i) => `s${i}`));
    expect(() =>
      parseConfig(valid.replace("{ type: none }", `{ type: github, secrets: ${nine} }`), "x.yaml", {}),
    ).toThrow(/verify\.secrets/);
  });

  it("rejects names that would break keys and URLs", () => {
    expect(() => parseConfig(valid.replace("sources: { s:", 'sources: { "a:b":'), "x.yaml", {})).toThrow(
      /sources/,
    );
  });

  it("loads the bundled default", () => {
    const c = loadConfig(BUNDLED_CONFIG, {});
    expect(Object.keys(c.sources)).toEqual(["demo", "github_demo"]);
    expect(c.sources.github_demo?.verify.type).toBe("github");
    expect(c.sinks.audit?.type).toBe("log");
  });
});

describe("redaction", () => {
  it("masks secrets, tokens, auth headers and URL userinfo", () => {
    const out = JSON.stringify(
      redact({
        admin: { tokens: ["t0ken-plain", { token: "bound-token", tenant: "acme" }] },
        sinks: {
          f: {
            type: "http",
            url: "https://u:pw@h/x",
            headers: { Authorization: "Bearer abc", "x-ok": "fine" },
            secret: "whsec_x",
          },
          k: { type: "kafka", sasl: { username: "u", password: "pw2" } },
        },
        sources: { s: { verify: { type: "stripe", secrets: ["whsec_a", "whsec_b"] } } },
      }),
    );
    for (const secret of [
      "t0ken-plain",
      "bound-token",
      ":pw@",
      "Bearer abc",
      "whsec_x",
      "pw2",
      "whsec_a",
      "whsec_b",
      // Every header value: a provider's credential header can have any name.
      "fine",
    ]) {
      expect(out).not.toContain(secret);
    }
    expect(out).toContain("x-ok");
    expect(out).toContain("acme");
  });
});

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run.ts";
import { BUNDLED_CONFIG, ConfigError, loadConfig, parseConfig } from "../../src/config/load.ts";
import { parseInterpolated } from "../../src/config/interpolate.ts";
import { redact } from "../../src/config/redact.ts";
import { createLogger } from "../../src/observability/logger.ts";
import { nodeServerOptions } from "../../src/runtime/http-server.ts";

describe("interpolation", () => {
  const interpolated = (text: string, env: Record<string, string>): unknown =>
    parseInterpolated(text, env).toJS();

  it("reads ${VAR} and ${VAR:-default} from the environment", () => {
    expect(interpolated("a: ${A}\nb: ${B:-two}\nc: ${C:-x}", { A: "one", C: "three" })).toEqual({
      a: "one",
      b: "two",
      c: "three",
    });
  });

  it("stops on an unset variable without default, naming it and the line", () => {
    expect(() => interpolated("x: 1\ny: ${NOPE}", {})).toThrow(/NOPE is not set \(line 2\)/);
  });

  it("leaves comments and escaped references alone", () => {
    expect(interpolated("# ${NOPE}\nx: $${LIT} # ${NOPE}", {})).toEqual({ x: "${LIT}" });
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

  it("grants no other origin by default, and takes admin.allowed_origins only as exact origins", () => {
    expect(parseConfig(valid, "x.yaml", {}).admin.allowed_origins).toEqual([]);
    const ok = `${valid}admin: { allowed_origins: ["https://ops.example.com", "http://127.0.0.1:8080"] }\n`;
    expect(parseConfig(ok, "x.yaml", {}).admin.allowed_origins).toEqual([
      "https://ops.example.com",
      "http://127.0.0.1:8080",
    ]);
    for (const bad of [
      "*",
      "https://ops.example.com/",
      "https://ops.example.com/console",
      "ops.example.com",
      "ftp://x.example",
    ]) {
      expect(
        () => parseConfig(`${valid}admin: { allowed_origins: ["${bad}"] }\n`, "x.yaml", {}),
        bad,
      ).toThrow(/admin\.allowed_origins\[0\]: must be an origin as browsers send it/);
    }
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
      /sources\.s\.sinks\[1\]: unknown sink "ghost"/,
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

  it("drops an empty secret (an unset ${OLD:-} during a rotation), but still needs one", () => {
    const rotating = valid.replace("{ type: none }", '{ type: github, secrets: [now, "${OLD:-}"] }');
    expect(parseConfig(rotating, "x.yaml", {}).sources.s?.verify).toMatchObject({ secrets: ["now"] });
    expect(() =>
      parseConfig(valid.replace("{ type: none }", '{ type: github, secrets: [""] }'), "x.yaml", {}),
    ).toThrow(/verify\.secrets: at least one secret/);
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

describe("platform environment (PORT, REDIS_URL, LOG_LEVEL)", () => {
  const bare = `
sinks: { out: { type: http, url: "http://localhost:9000/in" } }
sources: { s: { verify: { type: none }, sinks: [out] } }
`;
  const withKeys = `log_level: warn
redis: { url: "redis://file-host:6379", prefix: mine }
http: { port: 8080, host: 127.0.0.1 }
${bare}`;
  const env = { PORT: "5123", REDIS_URL: "redis://10.0.0.7:6390", LOG_LEVEL: "debug" };

  function configError(text: string, vars: Record<string, string>): string {
    try {
      parseConfig(text, "x.yaml", vars);
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return (err as Error).message;
    }
    return expect.unreachable();
  }

  it("uses the built-in defaults when neither the file nor the environment says", () => {
    const c = parseConfig(bare, "x.yaml", {});
    expect(c.http.port).toBe(3000);
    expect(c.redis.url).toBe("redis://127.0.0.1:6379");
    expect(c.log_level).toBe("info");
  });

  it("takes http.port from PORT when the file omits it", () => {
    expect(parseConfig(bare, "x.yaml", env).http.port).toBe(5123);
    const sectionWithoutPort = `http: { host: 127.0.0.1 }\n${bare}`;
    expect(parseConfig(sectionWithoutPort, "x.yaml", env).http).toMatchObject({
      port: 5123,
      host: "127.0.0.1",
    });
  });

  it("takes redis.url from REDIS_URL when the file omits it", () => {
    expect(parseConfig(bare, "x.yaml", env).redis.url).toBe("redis://10.0.0.7:6390");
    const sectionWithoutUrl = `redis: { prefix: mine }\n${bare}`;
    expect(parseConfig(sectionWithoutUrl, "x.yaml", env).redis).toEqual({
      url: "redis://10.0.0.7:6390",
      prefix: "mine",
      require_noeviction: false,
    });
    expect(parseConfig(sectionWithoutUrl, "x.yaml", {}).redis.url).toBe("redis://127.0.0.1:6379");
  });

  it("takes log_level from LOG_LEVEL when the file omits it", () => {
    expect(parseConfig(bare, "x.yaml", env).log_level).toBe("debug");
  });

  it("gives the logger the level the config decided", () => {
    expect(createLogger({ level: parseConfig(bare, "x.yaml", env).log_level }).level).toBe("debug");
  });

  it("keeps the values written in the file over the environment", () => {
    const c = parseConfig(withKeys, "x.yaml", env);
    expect(c.http.port).toBe(8080);
    expect(c.redis.url).toBe("redis://file-host:6379");
    expect(c.log_level).toBe("warn");
  });

  it("treats an empty variable as unset", () => {
    const c = parseConfig(bare, "x.yaml", { PORT: "", REDIS_URL: "", LOG_LEVEL: "" });
    expect([c.http.port, c.redis.url, c.log_level]).toEqual([3000, "redis://127.0.0.1:6379", "info"]);
  });

  it("rejects an invalid PORT under http.port, saying it came from the environment", () => {
    for (const port of ["abc", "70000", "80.5"]) {
      expect(configError(bare, { PORT: port })).toMatch(/http\.port: .*\(from environment variable PORT\)/);
    }
  });

  it("rejects an invalid REDIS_URL or LOG_LEVEL under its key path", () => {
    expect(configError(bare, { REDIS_URL: "localhost:6379" })).toMatch(
      /redis\.url: must be a redis:\/\/ or rediss:\/\/ URL \(from environment variable REDIS_URL\)/,
    );
    expect(configError(bare, { LOG_LEVEL: "loud" })).toMatch(/log_level: .*LOG_LEVEL/);
  });

  it("does not blame the environment for an invalid value written in the file", () => {
    const message = configError(withKeys.replace("8080", "99999"), env);
    expect(message).toContain("http.port: ");
    expect(message).not.toContain("environment variable");
  });

  it("print-config shows the values taken from the environment", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sy-print-config-"));
    try {
      const file = join(dir, "switchyard.yaml");
      writeFileSync(file, bare);
      const stdout = new PassThrough();
      let printed = "";
      stdout.on("data", (d: Buffer) => (printed += d.toString()));
      const io = { stdout, stderr: new PassThrough(), env };
      expect(await runCli(["print-config", file, "--json"], io)).toBe(0);
      const shown = JSON.parse(printed) as {
        http: { port: number };
        redis: { url: string };
        log_level: string;
      };
      expect(shown.http.port).toBe(5123);
      expect(shown.redis.url).toBe("redis://10.0.0.7:6390");
      expect(shown.log_level).toBe("debug");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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

// Typos in the config once passed validation, even `check-config --strict`: `timeout: 500` in a sink
// (for `timeout_ms`) and a top-level `retention_days: 3` were dropped silently, leaving the defaults
// in force. Unknown keys are errors naming the key path and the key probably meant; array positions
// read `admin.tokens[0]`, not `admin.tokens.[0]`.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run.ts";
import { ConfigError, EX_CONFIG, loadConfig, parseConfig } from "../../src/config/load.ts";
import { closestKey } from "../../src/config/unknown-keys.ts";

const valid = `
sinks: { out: { type: http, url: "http://localhost:9000/in" } }
sources: { s: { verify: { type: stripe, secrets: [whsec] }, sinks: [out] } }
`;

function issuesOf(text: string): readonly string[] {
  try {
    parseConfig(text, "x.yaml", {});
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).issues;
  }
  return expect.unreachable("the config was accepted");
}

describe("unknown config keys", () => {
  it("refuses a typo in a sink, naming its path and the key meant (timeout for timeout_ms)", () => {
    expect(issuesOf(valid.replace('url: "http', 'timeout: 500, url: "http'))).toEqual([
      "sinks.out.timeout: unknown key (did you mean timeout_ms?)",
    ]);
  });

  it("refuses an unknown top-level key (retention_days for retention_s)", () => {
    expect(issuesOf(`retention_days: 3\n${valid}`)).toEqual([
      "retention_days: unknown key (did you mean retention_s?)",
    ]);
  });

  it("refuses unknown keys at every depth, one line per key, with a hint only when one is close", () => {
    const text = `
http: { prot: 3000 }
dispatch: { retry: { max_atempts: 3 } }
outbound: { breaker: { failure: 3 } }
redis: { cluster: { nodes: ["redis://a:1"], password: x } }
sinks: { out: { type: http, url: "http://localhost:9000/in", colour: red, secrets: x } }
sources: { s: { verify: { type: stripe, secrets: [whsec], tolerance: 5 }, sinks: [out], max_queue_dept: 5 } }
`;
    expect([...issuesOf(text)].sort()).toEqual(
      [
        "http.prot: unknown key (did you mean port?)",
        "dispatch.retry.max_atempts: unknown key (did you mean max_attempts?)",
        "outbound.breaker.failure: unknown key (did you mean failures?)",
        "redis.cluster.password: unknown key",
        "sinks.out.colour: unknown key",
        "sinks.out.secrets: unknown key (did you mean secret?)",
        "sources.s.verify.tolerance: unknown key (did you mean tolerance_s?)",
        "sources.s.max_queue_dept: unknown key (did you mean max_queue_depth?)",
      ].sort(),
    );
  });

  it("names array positions as admin.tokens[0], not admin.tokens.[0]", () => {
    expect(issuesOf(`admin: { tokens: [short] }\n${valid}`)).toEqual([
      "admin.tokens[0]: admin tokens must be at least 16 characters",
    ]);
    expect(issuesOf(valid.replace("sinks: [out]", "sinks: [out, ghost]"))).toEqual([
      'sources.s.sinks[1]: unknown sink "ghost" (defined: out)',
    ]);
  });

  it("suggests nothing for a key far from every known one", () => {
    expect(closestKey("colour", ["url", "method", "headers", "timeout_ms"])).toBeUndefined();
    expect(closestKey("timeout", ["url", "timeout_ms"])).toBe("timeout_ms");
    expect(closestKey("ssl", ["url", "method"])).toBeUndefined();
    expect(closestKey("prot", ["port", "host"])).toBe("port");
  });

  it("check-config exits 78 on a typo, --strict or not", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sy-unknown-keys-"));
    try {
      const file = join(dir, "switchyard.yaml");
      writeFileSync(file, `retention_days: 3\n${valid}`);
      for (const args of [
        ["check-config", file],
        ["check-config", file, "--strict"],
      ]) {
        let stderr = "";
        const err = new PassThrough();
        err.on("data", (d: Buffer) => (stderr += d.toString()));
        expect(await runCli(args, { stdout: new PassThrough(), stderr: err, env: {} })).toBe(EX_CONFIG);
        expect(stderr).toContain("retention_days: unknown key (did you mean retention_s?)");
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("still accepts every bundled config", () => {
    const env = { REDIS_URL: "redis://127.0.0.1:6379", SWITCHYARD_ADMIN_TOKEN: "x".repeat(16) };
    const files = readdirSync("config").filter((f) => f.endsWith(".yaml"));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) expect(() => loadConfig(join("config", f), env), f).not.toThrow();
  });
});

// `${VAR}` values are inserted as scalars: whatever a variable holds (`#`, a newline, `: `, braces,
// quotes) becomes that string, never YAML syntax that truncates the value or injects keys.
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config/load.ts";
import type { HttpSinkConfig } from "../../src/sinks/http/config.ts";

const HOSTILE = [
  "abc#def",
  "abc # not a comment",
  "line1\nline2",
  "key: value",
  "{ a: 1 }",
  "[x, y]",
  `double " quote`,
  "single ' quote",
  "back\\slash\\n",
  "x\nlog_level: silent\nadmin: { tokens: [injected-token-0123456789] }",
];

/** A config whose secret, admin token and sink header come from variables, quoted and unquoted. */
const TEXT = `
http: { port: \${PORT:-3000} }
admin:
  tokens: [\${TOKEN}, "\${QUOTED_TOKEN}"]
sinks:
  out: { type: http, url: "http://localhost:9000/in", headers: { x-a: "\${HEADER}", x-b: \${HEADER} } }
sources:
  s:
    verify: { type: github, secrets: ["\${SECRET}"] }
    sinks: [out]
    tenant: \${TENANT:-acme}
`;

describe("config_interpolation_injection", () => {
  it.each(HOSTILE)("keeps %j whole, wherever it is used", (value) => {
    const [token, quoted] = [`tok-0123456789-${value}`, `quoted-0123456789-${value}`];
    const cfg = parseConfig(TEXT, "x.yaml", {
      SECRET: value,
      HEADER: value,
      TOKEN: token,
      QUOTED_TOKEN: quoted,
    });
    const source = cfg.sources.s;
    expect(source?.verify).toMatchObject({ type: "github", secrets: [value] });
    expect(cfg.admin.tokens).toEqual([token, quoted]);
    // A sink's own keys are its plugin's: the config type outside src/sinks/http/ holds only the common ones.
    const sink = cfg.sinks.out as HttpSinkConfig | undefined;
    expect(sink?.headers).toEqual({ "x-a": value, "x-b": value });
    expect(cfg.log_level).toBe("info");
  });

  it("types a plain scalar that is one reference as YAML would: a number stays a number", () => {
    const cfg = parseConfig(TEXT, "x.yaml", {
      PORT: "8080",
      SECRET: "s",
      HEADER: "h",
      TOKEN: "t".repeat(16),
      QUOTED_TOKEN: "q".repeat(16),
    });
    expect(cfg.http.port).toBe(8080);
    expect(cfg.sources.s?.tenant).toBe("acme");
  });

  it("still stops on an unset variable without default, naming it and its line", () => {
    expect(() => parseConfig(TEXT, "x.yaml", { SECRET: "s", HEADER: "h", TOKEN: "t".repeat(16) })).toThrow(
      /QUOTED_TOKEN is not set \(line 4\)/,
    );
  });
});

// Lists in the config that are sets: a name or secret listed twice is a mistake (a sink listed twice
// counted two live deliveries for one row, and the record never expired), refused at boot naming it.
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config/load.ts";

const BASE = `
admin: { tokens: ["admin-token-0123456789"] }
sinks:
  out: { type: http, url: "http://localhost:9000/in" }
  other: { type: http, url: "http://localhost:9000/other" }
sources:
  s: { verify: { type: none }, sinks: [out, other] }
`;

function problems(text: string): string {
  try {
    parseConfig(text, "x.yaml", {});
  } catch (err) {
    return (err as Error).message;
  }
  return "(accepted)";
}

describe("duplicate_list_entries", () => {
  it("accepts the base config", () => {
    expect(problems(BASE)).toBe("(accepted)");
  });

  it("refuses a sink listed twice in a source, naming the entry", () => {
    const text = BASE.replace("sinks: [out, other]", "sinks: [out, other, out]");
    expect(problems(text)).toMatch(/sources\.s\.sinks\.?\[2\]: "out" is listed twice/);
  });

  it("refuses a verify secret listed twice without printing it", () => {
    const text = BASE.replace(
      "verify: { type: none }",
      'verify: { type: github, secrets: ["gh-secret-one", "gh-secret-two", "gh-secret-one"] }',
    );
    const message = problems(text);
    expect(message).toMatch(/sources\.s\.verify\.secrets\.?\[2\]: the same secret as \[0\]/);
    expect(message).not.toContain("gh-secret-one");
  });

  it("refuses an admin token listed twice (plain or bound to a tenant) without printing it", () => {
    const text = BASE.replace(
      'tokens: ["admin-token-0123456789"]',
      'tokens: ["admin-token-0123456789", "", "", { token: "admin-token-0123456789", tenant: acme }]',
    );
    const message = problems(text);
    expect(message).toMatch(/admin\.tokens\.?\[3\]: the same token as \[0\]/);
    expect(message).not.toContain("admin-token-0123456789");
  });

  it("refuses a cluster node and a kafka broker listed twice", () => {
    const text = `${BASE.replace(
      "sinks:\n",
      'sinks:\n  k: { type: kafka, brokers: ["b1:9092", "b2:9092", "b1:9092"], topic: t }\n',
    )}redis: { cluster: { nodes: ["redis://n1:7000", "redis://n1:7000"] } }\n`;
    const message = problems(text);
    expect(message).toMatch(/redis\.cluster\.nodes\.?\[1\]: "redis:\/\/n1:7000" is listed twice/);
    expect(message).toMatch(/sinks\.k\.brokers\.?\[2\]: "b1:9092" is listed twice/);
  });
});

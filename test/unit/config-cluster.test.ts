// Config of a Redis Cluster deployment: cluster seeds, queue partitions, and what print-config shows.
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config/load.ts";
import { redact } from "../../src/config/redact.ts";

const base = `
sinks: { out: { type: http, url: "http://localhost:9000/in" } }
sources: { s: { verify: { type: none }, sinks: [out] } }
`;

describe("redis.cluster and sinks.<name>.partitions", () => {
  it("takes cluster seeds as redis:// URLs and leaves a single Redis by default", () => {
    expect(parseConfig(base, "x.yaml", {}).redis.cluster).toBeUndefined();
    const c = parseConfig(
      `${base}redis: { cluster: { nodes: ["redis://10.0.0.1:6379", "rediss://:pw@10.0.0.2:6380"] } }\n`,
      "x.yaml",
      {},
    );
    expect(c.redis.cluster?.nodes).toEqual(["redis://10.0.0.1:6379", "rediss://:pw@10.0.0.2:6380"]);
  });

  it("refuses a seed that is not a redis URL, or no seeds, naming the key path", () => {
    expect(() =>
      parseConfig(`${base}redis: { cluster: { nodes: ["10.0.0.1:6379"] } }\n`, "x.yaml", {}),
    ).toThrow(/redis\.cluster\.nodes\[0\]: must be a redis:\/\//);
    expect(() => parseConfig(`${base}redis: { cluster: { nodes: [] } }\n`, "x.yaml", {})).toThrow(
      /redis\.cluster\.nodes/,
    );
  });

  it("bounds partitions to 1..256 and leaves them unset (one queue) by default", () => {
    expect(parseConfig(base, "x.yaml", {}).sinks.out?.partitions).toBeUndefined();
    const four = base.replace(
      'url: "http://localhost:9000/in"',
      'url: "http://localhost:9000/in", partitions: 4',
    );
    expect(parseConfig(four, "x.yaml", {}).sinks.out?.partitions).toBe(4);
    for (const n of [0, 257])
      expect(() => parseConfig(four.replace("partitions: 4", `partitions: ${n}`), "x.yaml", {})).toThrow(
        /sinks\.out\.partitions/,
      );
  });

  it("redacts the credentials of cluster seeds in print-config", () => {
    const shown = redact({ redis: { cluster: { nodes: ["redis://user:hunter2@10.0.0.1:6379"] } } });
    expect(JSON.stringify(shown)).not.toContain("hunter2");
    expect(JSON.stringify(shown)).toContain("10.0.0.1:6379");
  });
});

// Boot refuses a retention shorter than what a delivery or a duplicate may need: a record would vanish
// under a live delivery, or a duplicate of an expired hook would be accepted as new.
import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "../../src/config/load.ts";

const base = `
sinks: { out: { type: http, url: "http://127.0.0.1:9/" } }
`;
const parse = (yaml: string) => parseConfig(`${base}${yaml}`, "x.yaml", {});

describe("retention checks", () => {
  it("accepts the defaults", () => {
    expect(parse(`sources: { s: { verify: { type: none }, sinks: [out] } }`).retention_s).toBe(604_800);
  });

  it.each([
    [
      "a retention shorter than dispatch.retry.max_elapsed_ms",
      `retention_s: 60\nsources: { s: { verify: { type: none }, sinks: [out], dedup_ttl_s: 60 } }`,
      /retention_s: 60 s is shorter than dispatch.retry.max_elapsed_ms/,
    ],
    [
      "a source retrying longer than retention",
      `retention_s: 100000\nsources: { s: { verify: { type: none }, sinks: [out], dedup_ttl_s: 60, retry: { max_elapsed_ms: 200000000 } } }`,
      /sources.s.retry.max_elapsed_ms: 200000000 ms is longer than retention_s/,
    ],
    [
      "a dedup TTL longer than retention",
      `retention_s: 100000\nsources: { s: { verify: { type: none }, sinks: [out] } }`,
      /sources.s.dedup_ttl_s: 259200 s is longer than retention_s/,
    ],
    [
      "outbound retries longer than retention",
      `retention_s: 100000\noutbound: { retry: { max_elapsed_ms: 200000000 } }\nsources: { s: { verify: { type: none }, sinks: [out], dedup_ttl_s: 60 } }`,
      /outbound.retry.max_elapsed_ms: 200000000 ms is longer than retention_s/,
    ],
  ])("refuses %s, naming the key", (_what, yaml, message) => {
    expect(() => parse(yaml)).toThrow(ConfigError);
    expect(() => parse(yaml)).toThrow(message);
  });
});

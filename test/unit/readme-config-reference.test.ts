// The README's config reference is the block operators copy from. It left out `http.host` (the
// listen address, default 0.0.0.0), and now that unknown keys are refused a stale key in it would
// fail whoever copies it: it must be a valid config, and its http section must name every http key.
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { expect, it } from "vitest";
import { parseConfig } from "../../src/config/load.ts";
import { configSchema } from "../../src/config/schema.ts";

const readme = readFileSync("README.md", "utf8");
const reference = /```yaml\n(log_level:[\s\S]*?)```/.exec(readme)?.[1] ?? "";

it("is a valid config under the strict schema (the variables it needs set, the optional ones not)", () => {
  expect(reference).not.toBe("");
  const env = Object.fromEntries(
    // Each variable gets a value of its own: lists that are sets refuse a repeated token or secret.
    [...reference.matchAll(/\$\{([A-Z_][A-Z0-9_]*)\}/g)].map((m) => [m[1], `${m[1]}-${"x".repeat(40)}`]),
  );
  expect(() => parseConfig(reference, "README.md", env)).not.toThrow();
});

it("names every key of the http section, http.host with its default", () => {
  const http = (parse(reference) as { http?: Record<string, unknown> }).http ?? {};
  const keys = Object.keys(configSchema().shape.http.unwrap().shape);
  expect(keys.filter((k) => !(k in http))).toEqual([]);
  expect(reference).toMatch(/^ {2}host: 0\.0\.0\.0 /m);
});

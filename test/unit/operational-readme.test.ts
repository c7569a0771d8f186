// The README's operational event examples are the schema module's (regenerate them with
// `npx tsx scripts/operational-readme.ts write`), and the README names every config key of the feature.
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { examplesBlock, operationalExamplesMarkdown } from "../../scripts/operational-readme.ts";
import { operationalSchema } from "../../src/config/operational-schema.ts";

const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

it("shows every operational type with the example its schema documents", () => {
  const block = examplesBlock(readme);
  expect(block, "README.md has no operational-examples markers").toBeDefined();
  expect(block).toBe(operationalExamplesMarkdown());
});

it("documents every operational config key", () => {
  const keys = Object.keys(operationalSchema.unwrap().shape);
  expect(keys.filter((k) => !readme.includes(`\`operational.${k}\``))).toEqual([]);
});

// docs/architecture.md carries a copy of the delivery state table; it must say what the domain's
// table (the one the property test checks the scripts against) says, row for row.
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { transitionTableMarkdown } from "../../src/domain/delivery-machine.ts";

const doc = readFileSync(new URL("../../docs/architecture.md", import.meta.url), "utf8");

it("the state table in docs/architecture.md is the domain's DELIVERY_TRANSITIONS", () => {
  const table = /<!-- state-table:begin -->\n([\s\S]*?)\n<!-- state-table:end -->/.exec(doc)?.[1];
  expect(table, "docs/architecture.md has no state-table markers").toBeDefined();
  expect(table).toBe(transitionTableMarkdown());
});

it("every file docs/architecture.md names exists", () => {
  const paths = [...doc.matchAll(/`((?:src|test)\/[\w./-]+\.(?:ts|lua))`/g)].map((m) => m[1]!);
  expect(paths.length).toBeGreaterThan(10);
  const missing = paths.filter((p) => {
    try {
      readFileSync(new URL(`../../${p}`, import.meta.url));
      return false;
    } catch {
      return true;
    }
  });
  expect(missing).toEqual([]);
});

// The README's examples of the operational events are generated from the one module that documents their
// payloads (src/domain/operational-schemas.ts), so they cannot drift: `npx tsx scripts/operational-readme.ts
// write` rewrites the block between the markers, and test/unit/operational-readme.test.ts checks it.
import { readFileSync, writeFileSync } from "node:fs";
import process from "node:process";
import { OPERATIONAL_TYPES } from "../src/domain/operational-events.ts";
import { OPERATIONAL_SCHEMAS } from "../src/domain/operational-schemas.ts";

export const BEGIN = "<!-- operational-examples:begin -->";
export const END = "<!-- operational-examples:end -->";
const README = new URL("../README.md", import.meta.url);

/** Each type with what it means and an example body (`{type, timestamp, data}`), as markdown. */
export function operationalExamplesMarkdown(): string {
  return OPERATIONAL_TYPES.map((type) => {
    const doc = OPERATIONAL_SCHEMAS[type];
    const body = { type, timestamp: "2026-12-06T11:02:13.004Z", data: doc.example };
    return `**\`${type}\`**: ${doc.description}\n\n\`\`\`json\n${JSON.stringify(body, null, 2)}\n\`\`\``;
  }).join("\n\n");
}

/** The block between the markers in `readme`, or undefined when the markers are missing. */
export function examplesBlock(readme: string): string | undefined {
  const from = readme.indexOf(BEGIN);
  const to = readme.indexOf(END);
  return from < 0 || to < from ? undefined : readme.slice(from + BEGIN.length, to).trim();
}

if (process.argv[2] === "write") {
  const readme = readFileSync(README, "utf8");
  const from = readme.indexOf(BEGIN);
  const to = readme.indexOf(END);
  if (from < 0 || to < from) throw new Error(`README.md has no ${BEGIN} … ${END} markers`);
  writeFileSync(
    README,
    `${readme.slice(0, from + BEGIN.length)}\n${operationalExamplesMarkdown()}\n${readme.slice(to)}`,
  );
  console.log("wrote the operational event examples into README.md");
}

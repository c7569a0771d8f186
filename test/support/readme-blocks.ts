// The README's shell blocks between `<!-- readme-test: NAME -->` and `<!-- /readme-test -->`, read from
// README.md itself, so a test runs the commands a reader copies and the two cannot drift apart.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./built-dist.ts";

export function readmeScript(name: string): string {
  const text = readFileSync(join(ROOT, "README.md"), "utf8");
  const start = text.indexOf(`<!-- readme-test: ${name} -->`);
  const end = text.indexOf("<!-- /readme-test -->", start);
  if (start < 0 || end < 0) throw new Error(`README.md has no readme-test region "${name}"`);
  const blocks = [...text.slice(start, end).matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
  if (blocks.length === 0) throw new Error(`README.md's readme-test region "${name}" has no sh block`);
  return blocks.join("\n");
}

/** `script` with every `from` replaced by `to`; fails when `from` is not there (the README changed). */
export function replaceAll(script: string, from: string, to: string): string {
  if (!script.includes(from)) throw new Error(`the README's commands no longer contain ${from}`);
  return script.split(from).join(to);
}

// Regression: the production install (`npm ci --omit=dev`) put TypeScript (23 MB) in the runtime
// image: Bull Board's valibot has it as an optional peer, so npm marks it devOptional and keeps it
// unless optional packages are omitted too. The runtime imports nothing optional it cannot do without
// (the other optional package is msgpackr's native extract, which msgpackr replaces with JavaScript),
// so the Dockerfile and the README install with `--omit=dev --omit=optional`. Checked on the lockfile
// with npm's omit rules (verified once by hand: `npm ci` with those flags in a temp copy, no typescript).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { ROOT } from "../support/built-dist.ts";

interface LockEntry {
  dev?: boolean;
  optional?: boolean;
  devOptional?: boolean;
  peer?: boolean;
}

const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
  packages: Record<string, LockEntry>;
};

/** The runtime stage's `npm ci` flags: the last `npm ci` of the Dockerfile. */
function dockerfileOmits(): Set<string> {
  const lines = readFileSync(join(ROOT, "Dockerfile"), "utf8")
    .split("\n")
    .filter((l) => /\bnpm ci\b/.test(l));
  const last = lines.at(-1) ?? "";
  return new Set([...last.matchAll(/--omit=(\w+)/g)].map((m) => m[1]!));
}

/** What `npm ci` with these omits puts on disk (npm's rules for the lockfile's flags). */
function installed(omit: Set<string>): string[] {
  return Object.entries(lock.packages)
    .filter(([path]) => path !== "")
    .filter(
      ([, e]) =>
        !(
          (e.dev && omit.has("dev")) ||
          (e.optional && omit.has("optional")) ||
          (e.devOptional && omit.has("dev") && omit.has("optional")) ||
          (e.peer && omit.has("peer"))
        ),
    )
    .map(([path]) => path);
}

it("the runtime image's production install has no TypeScript", () => {
  const paths = installed(dockerfileOmits());
  expect(paths.filter((p) => /(^|\/)node_modules\/typescript$/.test(p))).toEqual([]);
  // Still the runtime's own dependencies.
  for (const dep of ["bullmq", "hono", "ioredis", "@bull-board/api", "valibot"])
    expect(paths, dep).toContain(`node_modules/${dep}`);
});

it("the README's production install is the Dockerfile's", () => {
  expect(readFileSync(join(ROOT, "README.md"), "utf8")).toContain("`npm ci --omit=dev --omit=optional`");
});

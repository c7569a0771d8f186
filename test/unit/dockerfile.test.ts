// The Dockerfile, read as Docker reads it (no docker on the test machines): a build stage that packs
// the package, a node:20-slim runtime stage that installs it without dev dependencies, a non-root
// user, a HEALTHCHECK on /healthz, and nothing of the sources in the image.
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";

interface Instruction {
  readonly op: string;
  readonly args: string;
}

interface Stage {
  readonly from: string;
  readonly name: string | undefined;
  readonly body: Instruction[];
}

/** Instructions with their continuation lines joined and comments dropped, grouped by FROM. */
function stagesOf(text: string): Stage[] {
  const joined = text
    .split("\n")
    .filter((line) => !/^\s*#/.test(line))
    .join("\n")
    .replace(/\\\n/g, " ");
  const stages: Stage[] = [];
  for (const line of joined.split("\n")) {
    const m = /^\s*([A-Z]+)\s+(.*)$/.exec(line);
    if (!m) continue;
    const [op, args] = [m[1] as string, (m[2] as string).trim()];
    if (op === "FROM") {
      const [, from, name] = /^(\S+)(?:\s+AS\s+(\S+))?/i.exec(args) ?? [];
      stages.push({ from: from as string, name, body: [] });
    } else stages.at(-1)?.body.push({ op, args });
  }
  return stages;
}

const stages = stagesOf(readFileSync(new URL("../../Dockerfile", import.meta.url), "utf8"));
const [build, runtime] = stages;
const runs = (stage: Stage | undefined): string[] =>
  (stage?.body ?? []).filter((i) => i.op === "RUN").map((i) => i.args);

it("has two stages: build, then a node:20-slim runtime", () => {
  expect(stages.map((s) => [s.from, s.name])).toEqual([
    ["node:20-slim", "build"],
    ["node:20-slim", "runtime"],
  ]);
});

it("the build stage installs from the lockfile and packs the package (prepack builds)", () => {
  const commands = runs(build).join(" && ");
  expect(commands).toMatch(/\bnpm ci\b/);
  expect(commands).toMatch(/\bnpm pack\b/);
});

it("the runtime stage installs the packed tarball with production dependencies only", () => {
  const copies = (runtime?.body ?? []).filter((i) => i.op === "COPY").map((i) => i.args);
  expect(copies.some((c) => c.startsWith("--from=build") && c.includes(".tgz"))).toBe(true);
  // Only the package and the lockfile its dependencies are installed from: no sources, no dist/ or
  // node_modules of the build stage.
  expect(copies.filter((c) => !/^--from=build \S+(\.tgz|\/package-lock\.json) /.test(c))).toEqual([]);
  const installs = runs(runtime)
    .flatMap((r) => r.split("&&"))
    .map((c) => c.trim())
    .filter((c) => /^npm (ci|install|i)\b/.test(c));
  expect(installs.length).toBeGreaterThan(0);
  for (const install of installs) expect(install).toContain("--omit=dev");
  expect(runs(runtime).join(" ")).toMatch(/tar -xzf \/tmp\/switchyard\.tgz/);
});

it("runs as a non-root user", () => {
  const users = (runtime?.body ?? []).filter((i) => i.op === "USER").map((i) => i.args);
  expect(users.length).toBeGreaterThan(0);
  expect(users.at(-1)).not.toMatch(/^(root|0)(:|$)/);
});

it("has a HEALTHCHECK that asks /healthz", () => {
  const checks = (runtime?.body ?? []).filter((i) => i.op === "HEALTHCHECK").map((i) => i.args);
  expect(checks).toHaveLength(1);
  expect(checks[0]).toContain("/healthz");
  expect(checks[0]).toMatch(/CMD /);
});

it("its default command is the installed switchyard", () => {
  const cmd = (runtime?.body ?? []).filter((i) => i.op === "CMD").at(-1)?.args;
  expect(JSON.parse(cmd ?? "null")).toEqual(["switchyard", "start"]);
});

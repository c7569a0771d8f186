// The chaos harness runs the processes a platform would run: the Procfile's own commands, read when the
// run starts, so a change of entry point (tsx sources today, a compiled dist/ build tomorrow) is tested
// as deployed. A command that runs compiled output gets a fresh build first, if the project has a build
// script: a stale dist/ would test yesterday's code.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root (where the Procfile and package.json are). */
export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Every `role: command` line of the Procfile. */
export function readProcfile(root = ROOT): ReadonlyMap<string, string> {
  const roles = new Map<string, string>();
  for (const line of readFileSync(join(root, "Procfile"), "utf8").split("\n")) {
    const match = /^([A-Za-z0-9_-]+):\s*(.+)$/.exec(line.trim());
    if (match?.[1] !== undefined && match[2] !== undefined) roles.set(match[1], match[2]);
  }
  return roles;
}

/** The command of `role`; throws when the Procfile has none. */
export function procfileCommand(role: string, root = ROOT): string {
  const command = readProcfile(root).get(role);
  if (command === undefined) throw new Error(`Procfile has no "${role}" process`);
  return command;
}

/** Does any of `commands` run compiled output (a path under dist/)? */
export function runsCompiledOutput(commands: Iterable<string>): boolean {
  for (const command of commands) if (/(^|[\s/"'])dist\//.test(command)) return true;
  return false;
}

/**
 * Build the project when the Procfile runs compiled output and package.json has a `build` script;
 * returns what was done, for the run's log. A failed build throws with its output.
 */
export function buildIfNeeded(roles: readonly string[], root = ROOT): "built" | "not needed" {
  const procfile = readProcfile(root);
  const commands = roles.map((role) => procfile.get(role) ?? "");
  if (!runsCompiledOutput(commands)) return "not needed";
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
    scripts?: Record<string, string>;
  };
  if (pkg.scripts?.build === undefined) return "not needed";
  const result = spawnSync("npm", ["run", "build"], { cwd: root, encoding: "utf8" });
  if (result.status !== 0)
    throw new Error(`npm run build failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  return "built";
}

// What the processes said went wrong during a chaos run: their pino lines at error level or above,
// grouped by message with ids and numbers blanked out, so a run's report shows at a glance which
// errors the faults caused (and how often) without anyone reading megabytes of logs.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

const ERROR_LEVEL = 50;

/** An id (`dl_…`, `hk_…`, `ep_…`), a port, a count: what varies between lines of one kind. */
function shape(text: string): string {
  return text
    .replace(/\b(dl|hk|ep|ev|rp)_[0-9a-z]+/g, "$1_…")
    .replace(/\d+/g, "N")
    .slice(0, 140);
}

/** Error lines in `dir`'s `<role>.<n>.log` files, as `count× role: msg: err`, most frequent first. */
export function loggedErrors(dir: string, max = 12): string[] {
  const counts = new Map<string, number>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".log"))) {
    const role = file.replace(/\.\d+\.log$/, "");
    for (const line of readFileSync(join(dir, file), "utf8").split("\n")) {
      if (!line.startsWith("{")) continue;
      // pino writes `err` as the serialized error when an Error was logged, as a string when a message was.
      let entry: { level?: number; msg?: string; err?: string | { message?: string } };
      try {
        entry = JSON.parse(line) as typeof entry;
      } catch {
        continue;
      }
      if ((entry.level ?? 0) < ERROR_LEVEL) continue;
      const err = typeof entry.err === "object" ? entry.err.message : entry.err;
      const key = `${role}: ${entry.msg ?? ""}${err ? `: ${shape(err)}` : ""}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  const sorted = [...counts].sort((a, b) => b[1] - a[1]);
  const lines = sorted.slice(0, max).map(([key, n]) => `  ${n}× ${key}`);
  if (sorted.length > max) lines.push(`  … and ${sorted.length - max} other kinds`);
  return lines;
}

// Summaries of node --cpu-prof profiles (bench:e2e --cpu-prof DIR): for each sub-directory (one process
// role), the profile with the most samples (the real process, not the npx or tsx wrapper around it),
// its self time by function and by module, so a report can say where the CPU went without committing
// the profiles. Also runnable on its own: tsx bench/cpu-profile.ts DIR.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { functionName: string; url: string; lineNumber: number };
  readonly hitCount?: number;
}
interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly startTime: number;
  readonly endTime: number;
}

/** Where a frame's code lives: a package, one of our files, node's internals, or the VM itself. */
function moduleOf(url: string, name: string): string {
  if (url === "") return name.startsWith("(") ? name : "(native)";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  const ours = /\/((?:src|bench|workers)\/.+)$/.exec(url);
  if (ours) return ours[1]!;
  return url.startsWith("node:") ? url.replace(/^(node:[^/]+(?:\/[^/]+)?).*$/, "$1") : url;
}

function top(map: Map<string, number>, total: number, n: number): string[] {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `    ${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`);
}

export function summariseProfile(path: string, n = 18): string {
  const profile = JSON.parse(readFileSync(path, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const byFunction = new Map<string, number>();
  const byModule = new Map<string, number>();
  let idle = 0;
  for (const id of profile.samples) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) continue;
    if (frame.functionName === "(idle)" || frame.functionName === "(program)") idle += 1;
    const where = frame.url === "" ? "" : ` ${moduleOf(frame.url, "")}:${frame.lineNumber + 1}`;
    const fn = `${frame.functionName || "(anonymous)"}${where}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + 1);
    const mod = moduleOf(frame.url, frame.functionName);
    byModule.set(mod, (byModule.get(mod) ?? 0) + 1);
  }
  const total = profile.samples.length;
  const seconds = (profile.endTime - profile.startTime) / 1e6;
  return [
    `  ${path}: ${total} samples over ${seconds.toFixed(1)} s (${((100 * idle) / total).toFixed(0)}% idle/program)`,
    "   self time by module:",
    ...top(byModule, total, 12),
    "   self time by function:",
    ...top(byFunction, total, n),
  ].join("\n");
}

/** The largest profile in each sub-directory of `dir`, summarised. */
export function summariseProfiles(dir: string): string {
  const out: string[] = [];
  for (const sub of readdirSync(dir).sort()) {
    const subDir = join(dir, sub);
    if (!statSync(subDir).isDirectory()) continue;
    const files = readdirSync(subDir)
      .filter((f) => f.endsWith(".cpuprofile"))
      .map((f) => join(subDir, f))
      .sort((a, b) => statSync(b).size - statSync(a).size);
    if (files[0]) out.push(`${sub}:\n${summariseProfile(files[0])}`);
  }
  return out.join("\n\n");
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(summariseProfiles(process.argv[2] ?? "."));

// Summaries of node --cpu-prof profiles (bench:e2e --cpu-prof DIR): for each sub-directory (one process
// role), the profile with the most samples (the real process, not the npx or tsx wrapper around it),
// its self time by function and by module, so a report can say where the CPU went without committing
// the profiles. Also runnable on its own: tsx bench/scenarios/e2e/cpu-profile.ts DIR.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { functionName: string; url: string; lineNumber: number };
  readonly children?: readonly number[];
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
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byFunction = new Map<string, number>();
  const byModule = new Map<string, number>();
  // Inclusive time of our own functions (src/, bench/): each counted once per sample it is on the stack of.
  const inclusive = new Map<string, number>();
  let idle = 0;
  for (const id of profile.samples) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) continue;
    if (frame.functionName === "(idle)") {
      idle += 1;
      continue;
    }
    const where = frame.url === "" ? "" : ` ${moduleOf(frame.url, "")}:${frame.lineNumber + 1}`;
    const fn = `${frame.functionName || "(anonymous)"}${where}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + 1);
    const mod = moduleOf(frame.url, frame.functionName);
    byModule.set(mod, (byModule.get(mod) ?? 0) + 1);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const f = byId.get(at)?.callFrame;
      if (!f || !/\/(src|bench)\//.test(f.url)) continue;
      const key = `${f.functionName || "(anonymous)"} ${moduleOf(f.url, "")}:${f.lineNumber + 1}`;
      if (!seen.has(key)) inclusive.set(key, (inclusive.get(key) ?? 0) + 1);
      seen.add(key);
    }
  }
  const total = profile.samples.length - idle;
  const seconds = (profile.endTime - profile.startTime) / 1e6;
  return [
    `  ${path}: ${profile.samples.length} samples over ${seconds.toFixed(1)} s, ${((100 * idle) / profile.samples.length).toFixed(0)}% idle; shares of the busy ones`,
    "   self time by module:",
    ...top(byModule, total, 12),
    "   self time by function:",
    ...top(byFunction, total, n),
    "   total time (with callees) of our functions:",
    ...top(inclusive, total, n),
  ].join("\n");
}

/** The largest profile in each directory under `dir` that holds any, summarised. */
export function summariseProfiles(dir: string): string {
  const out: string[] = [];
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".cpuprofile"))
    .map((f) => join(dir, f))
    .sort((a, b) => statSync(b).size - statSync(a).size);
  if (files[0]) out.push(`${dir}:\n${summariseProfile(files[0])}`);
  for (const sub of readdirSync(dir).sort()) {
    const path = join(dir, sub);
    if (statSync(path).isDirectory()) out.push(summariseProfiles(path));
  }
  return out.filter(Boolean).join("\n\n");
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(summariseProfiles(process.argv[2] ?? "."));

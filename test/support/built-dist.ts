// Tests that run the Procfile run the compiled build, so they need a dist/ made from the sources under
// test. buildOnce() runs `npm run build` when dist/ was built from other inputs (or not at all), under a
// lock, so test files running at the same time build once and none spawns from a half-written dist/.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Everything `npm run build` reads. */
const INPUTS = [
  "src",
  "workers",
  // The CLI's admin client, compiled into the build.
  "packages/client/src",
  "config",
  "scripts",
  "tsconfig.json",
  "tsconfig.build.json",
  "package.json",
];
const STAMP = join(ROOT, "dist", ".inputs-sha256");
const LOCK = join(ROOT, "node_modules", ".cache", "switchyard-build.lock");

function files(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => files(join(path, name)));
}

/** A digest of the build's inputs: names and contents. */
export function inputsDigest(): string {
  const hash = createHash("sha256");
  for (const file of INPUTS.flatMap((p) => files(join(ROOT, p)))) {
    hash.update(file.slice(ROOT.length)).update("\0").update(readFileSync(file)).update("\0");
  }
  return hash.digest("hex");
}

function builtFrom(): string | undefined {
  try {
    return readFileSync(STAMP, "utf8");
  } catch {
    return undefined;
  }
}

function ageMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Take the build lock (a directory holding its owner's pid); false while another live process has it. */
function tryLock(): boolean {
  mkdirSync(join(LOCK, ".."), { recursive: true });
  try {
    mkdirSync(LOCK);
    writeFileSync(join(LOCK, "pid"), String(process.pid));
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    // A lock left by a test process that died mid-build (no pid for long: it died taking the lock).
    let owner = 0;
    try {
      owner = Number(readFileSync(join(LOCK, "pid"), "utf8"));
    } catch {
      // not written yet, or the lock was released meanwhile
    }
    const dead = owner > 0 ? !alive(owner) : ageMs(LOCK) > 10_000;
    if (dead) rmSync(LOCK, { recursive: true, force: true });
    return false;
  }
}

function runBuild(): Promise<void> {
  return new Promise((resolve, reject) => {
    // Types are checked by `npm test` before any test runs; the emitted files are the same without.
    const child = spawn("npm", ["run", "build", "--", "--noCheck"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.once("error", reject);
    child.once("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`npm run build exited ${code}:\n${output}`)),
    );
  });
}

/** Make sure dist/ is built from the current sources; resolves once it is. */
export async function buildOnce(): Promise<void> {
  const digest = inputsDigest();
  while (builtFrom() !== digest) {
    if (!tryLock()) {
      await new Promise((r) => setTimeout(r, 200));
      continue;
    }
    try {
      if (builtFrom() !== digest) {
        await runBuild();
        writeFileSync(STAMP, digest);
      }
    } finally {
      rmSync(LOCK, { recursive: true, force: true });
    }
  }
}

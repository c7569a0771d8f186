// `npm run build`: compiles src/ and workers/ to dist/ with tsc (imports rewritten from .ts to .js), then
// copies what the code reads from disk at run time to the same relative places: the Lua scripts beside
// dist/src/store/, the BullMQ adapter's Lua include beside dist/src/queue/bullmq/, and the bundled
// config at dist/config/. dist/ is then all a deployment needs of ours.
import { spawnSync } from "node:child_process";
import { cpSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import process from "node:process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const at = (path) => join(root, path);

// A file removed from src/ must not survive in dist/ from an earlier build.
rmSync(at("dist"), { recursive: true, force: true });

// Extra arguments go to tsc (the tests pass --noCheck: `npm test` has type-checked already, and the
// emitted files are the same).
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const args = [tsc, "-p", "tsconfig.build.json", ...process.argv.slice(2)];
const compiled = spawnSync(process.execPath, args, {
  cwd: root,
  stdio: "inherit",
});
if (compiled.status !== 0) process.exit(compiled.status ?? 1);

cpSync(at("src/store/lua"), at("dist/src/store/lua"), { recursive: true });
cpSync(at("src/queue/bullmq"), at("dist/src/queue/bullmq"), {
  recursive: true,
  filter: (path) => !/\.[cm]?ts$/.test(path),
});
cpSync(at("src/api/portal/assets"), at("dist/src/api/portal/assets"), { recursive: true });
cpSync(at("config"), at("dist/config"), { recursive: true });

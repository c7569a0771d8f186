// Which Procfile commands run compiled output: the chaos harness builds first for those, so a
// compiled deploy is tested on fresh code and a tsx one is run as it is.
import { expect, it } from "vitest";
import { runsCompiledOutput } from "../support/procfile.ts";

it("a command that runs a file under dist/ runs compiled output; tsx sources do not", () => {
  expect(runsCompiledOutput(["npx tsx workers/web.ts", "npx tsx workers/worker.ts"])).toBe(false);
  expect(runsCompiledOutput(["node dist/workers/web.js"])).toBe(true);
  expect(runsCompiledOutput(["npx tsx workers/web.ts", "node ./dist/workers/worker.js"])).toBe(true);
  expect(runsCompiledOutput(['node "dist/workers/web.js"'])).toBe(true);
  expect(runsCompiledOutput(["node workers/distribute.js", "node redist/x.js"])).toBe(false);
});

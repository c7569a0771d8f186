#!/usr/bin/env node
// The `switchyard` command. In a development checkout (the TypeScript sources and tsx, a dev
// dependency, both present) it runs src/cli/main.ts as it is, so an edit needs no rebuild and a stale
// dist/ is never what runs; in an install without dev dependencies it runs the compiled dist/. With
// neither it says how to get one.
import { existsSync } from "node:fs";
import process from "node:process";

const sources = new URL("../src/cli/main.ts", import.meta.url);
const compiled = new URL("../dist/src/cli/main.js", import.meta.url);

async function tsxRegister() {
  try {
    return (await import("tsx/esm/api")).register;
  } catch (err) {
    if (err?.code === "ERR_MODULE_NOT_FOUND") return undefined;
    throw err;
  }
}

const register = existsSync(sources) ? await tsxRegister() : undefined;
if (register) {
  register();
  await import(sources.href);
} else if (existsSync(compiled)) {
  await import(compiled.href);
} else {
  process.stderr.write(
    "switchyard: no compiled build in dist/ (and no tsx to run the sources): run `npm run build`\n",
  );
  process.exit(1);
}

// Entry point of the `switchyard` CLI (bin/switchyard.mjs loads it from the sources under tsx, or from dist/).
import { runCli } from "./run.ts";

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
});

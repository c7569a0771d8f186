// Entry point of the `switchyard` CLI (bin/switchyard.mjs loads it through tsx).
import { runCli } from "./run.ts";

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
});

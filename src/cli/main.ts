// Entry point of the `switchyard` CLI (bin/switchyard.mjs loads it from the sources under tsx, or from dist/).
import { tolerateClosedReader } from "./io.ts";
import { runCli } from "./run.ts";

tolerateClosedReader(process.stdout);
tolerateClosedReader(process.stderr);
process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
});

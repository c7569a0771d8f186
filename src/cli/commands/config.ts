// `check-config` and `print-config`: the same loader and validation as boot, without starting anything,
// so an operator can check a file in CI or paste the effective config (secrets masked) into a ticket.
import { stringify } from "yaml";
import { ConfigError, loadConfig, resolveConfigPath } from "../../config/load.ts";
import { redact } from "../../config/redact.ts";
import { EXIT } from "../args.ts";
import { type CliIo, println } from "../io.ts";

function load(
  file: string | undefined,
  io: CliIo,
): { path: string; config: ReturnType<typeof loadConfig> } | number {
  const path = file ?? resolveConfigPath(io.env);
  try {
    return { path, config: loadConfig(path, io.env) };
  } catch (err) {
    if (err instanceof ConfigError) {
      println(io.stderr, `switchyard: ${err.message}`);
      return EXIT.config;
    }
    throw err;
  }
}

export function checkConfig(file: string | undefined, io: CliIo): number {
  const loaded = load(file, io);
  if (typeof loaded === "number") return loaded;
  const { path, config } = loaded;
  const sources = Object.keys(config.sources).length;
  const sinks = Object.keys(config.sinks).length;
  println(
    io.stdout,
    `ok: ${path} is valid (${sources} source${sources === 1 ? "" : "s"}, ${sinks} sink${sinks === 1 ? "" : "s"})`,
  );
  return EXIT.ok;
}

export function printConfig(file: string | undefined, json: boolean, io: CliIo): number {
  const loaded = load(file, io);
  if (typeof loaded === "number") return loaded;
  const safe = redact(loaded.config);
  io.stdout.write(
    json
      ? `${JSON.stringify(safe, null, 2)}\n`
      : `# ${loaded.path} (effective, secrets redacted)\n${stringify(safe)}`,
  );
  return EXIT.ok;
}

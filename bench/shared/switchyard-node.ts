// A Switchyard process for bench:deliver, bench:fanout, bench:tracing and bench:scale, assembled by startGateway like the real entry points:
//   api <config json>       the api role, listening at once; prints "ready <port>" with the ingest port.
//   dispatch <config json>  the dispatch role (no recovery), started only on POST /start (control.ts).
// Logs are written as a shipped process writes them (at the config's log_level, info unless LOG_LEVEL says
// otherwise: a line per delivery) but to /dev/null, so no reader's CPU counts; default process metrics
// are off: the figure is the delivery path.
import { openSync } from "node:fs";
import { configSchema } from "../../src/config/schema.ts";
import { LogOutput } from "../../src/observability/log-output.ts";
import { createLogger } from "../../src/observability/logger.ts";
import { Metrics } from "../../src/observability/metrics.ts";
import { type Gateway, startGateway } from "../../src/runtime/gateway.ts";
import { serveControl } from "./control.ts";

const [mode, configJson = "{}"] = process.argv.slice(2);
const config = configSchema().parse(JSON.parse(configJson));
const output = new LogOutput({ fd: openSync("/dev/null", "w") });
const opts = {
  logger: createLogger({ level: config.log_level, destination: output }),
  metrics: new Metrics(),
};

if (mode === "api") {
  const gw = await startGateway(config, { ...opts, roles: ["api"] });
  process.stdout.write(`ready ${gw.port}\n`);
  process.on("SIGTERM", () => void gw.stop().then(() => process.exit(0)));
} else if (mode === "dispatch") {
  let gw: Gateway | undefined;
  serveControl(
    async () => {
      gw = await startGateway(config, { ...opts, roles: ["dispatch"], graceMs: 2000 });
    },
    async () => gw?.stop(),
  );
} else {
  throw new Error(`unknown mode ${mode}`);
}

// A Switchyard process for bench:deliver, bench:fanout, bench:tracing and bench:scale, assembled by startGateway like the real entry points:
//   api <config json>       the api role, listening at once; prints "ready <port>" with the ingest port.
//   dispatch <config json>  the dispatch role (no recovery), started only on POST /start (control.ts).
// Logs are silent and default process metrics off, as in bench:ingest: the figure is the delivery path.
import { configSchema } from "../../src/config/schema.ts";
import { silentLogger } from "../../src/observability/logger.ts";
import { Metrics } from "../../src/observability/metrics.ts";
import { type Gateway, startGateway } from "../../src/runtime/gateway.ts";
import { serveControl } from "./control.ts";

const [mode, configJson = "{}"] = process.argv.slice(2);
const config = configSchema().parse(JSON.parse(configJson));
const opts = { logger: silentLogger(), metrics: new Metrics() };

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

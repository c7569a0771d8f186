// Child of test/unit/tracing-off.test.ts, run under import-recorder.mjs: loads the gateway's whole
// static module graph, starts tracing from the OTEL_* variables given as JSON in argv[2], and prints
// the OpenTelemetry modules the process resolved.
import { setTimeout as sleep } from "node:timers/promises";
import { silentLogger } from "../../src/observability/logger.ts";
import { startTracing } from "../../src/observability/start-tracing.ts";
import "../../src/runtime/gateway.ts";

const env = JSON.parse(process.argv[2] ?? "{}") as Record<string, string>;
const tracing = await startTracing(env, silentLogger());
await tracing.shutdown();
await sleep(200); // the loader thread's last messages
const seen = (globalThis as unknown as { resolvedModules: string[] }).resolvedModules;
process.stdout.write(
  `${JSON.stringify({
    enabled: tracing.enabled,
    total: seen.length,
    otel: [...new Set(seen.filter((u) => u.includes("/@opentelemetry/")))],
  })}\n`,
);

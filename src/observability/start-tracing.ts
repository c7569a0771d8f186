// Starting tracing at boot: read the OTEL_* variables, and only when they configure an exporter load the
// SDK adapter, by dynamic import, so a process without tracing never loads an OpenTelemetry module.
import type { Logger } from "./logger.ts";
import { type OtelEnv, tracingSettingsFromEnv } from "./otel-env.ts";
import { TRACING_OFF, type Tracing } from "./tracing.ts";

/**
 * Tracing as the OTEL_* variables in `env` configure it (process.env for a deployment). With no exporter
 * configured this returns TRACING_OFF without importing anything.
 */
export async function startTracing(env: OtelEnv, logger: Logger): Promise<Tracing> {
  const { settings, warnings } = tracingSettingsFromEnv(env);
  for (const warning of warnings) logger.warn(`tracing: ${warning}`);
  if (!settings) return TRACING_OFF;
  const { createOtelTracing } = await import("./otel-tracing.ts");
  const tracing = await createOtelTracing(settings, logger);
  const url = new URL(settings.url);
  logger.info(
    {
      endpoint: `${url.origin}${url.pathname}`,
      protocol: settings.protocol,
      service: settings.serviceName,
      sampler: settings.sampler,
    },
    "tracing on",
  );
  return tracing;
}

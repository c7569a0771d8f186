// Tracing is configured by the standard OpenTelemetry environment variables and by nothing else, so it
// deploys like any other instrumented service. This module reads them into settings without loading any
// of the SDK: with no exporter configured the answer is `undefined` and nothing else is paid for.
// Unsupported values are warned about and ignored, as the OpenTelemetry configuration spec asks.

export type OtelEnv = Readonly<Record<string, string | undefined>>;

export type OtlpProtocol = "http/protobuf" | "http/json";

export interface SamplerSettings {
  readonly root: "always_on" | "always_off" | "traceidratio";
  /** Sampled for `traceidratio`, in [0, 1]. */
  readonly ratio: number;
  /** Follow the parent's decision when there is a parent (the `parentbased_*` samplers). */
  readonly parentBased: boolean;
}

export interface TracingSettings {
  /** Where spans are POSTed: the full traces URL. */
  readonly url: string;
  readonly protocol: OtlpProtocol;
  /** Sent with every export (collector credentials): never logged. */
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  /** How often buffered spans are exported (OTEL_BSP_SCHEDULE_DELAY). */
  readonly scheduleDelayMs: number;
  readonly serviceName: string;
  readonly resourceAttributes: Readonly<Record<string, string>>;
  readonly sampler: SamplerSettings;
}

export interface TracingEnvResult {
  /** Undefined: tracing is off. */
  readonly settings: TracingSettings | undefined;
  readonly warnings: readonly string[];
}

const DEFAULT_URL = "http://localhost:4318/v1/traces";
const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_SCHEDULE_DELAY_MS = 5000;
const PROTOCOLS: readonly OtlpProtocol[] = ["http/protobuf", "http/json"];
const SAMPLERS: Readonly<Record<string, Omit<SamplerSettings, "ratio">>> = {
  always_on: { root: "always_on", parentBased: false },
  always_off: { root: "always_off", parentBased: false },
  traceidratio: { root: "traceidratio", parentBased: false },
  parentbased_always_on: { root: "always_on", parentBased: true },
  parentbased_always_off: { root: "always_off", parentBased: true },
  parentbased_traceidratio: { root: "traceidratio", parentBased: true },
};

function value(env: OtelEnv, name: string): string | undefined {
  const v = env[name]?.trim();
  return v === undefined || v === "" ? undefined : v;
}

/** `k1=v1,k2=v2` with percent-encoded values (OTEL_RESOURCE_ATTRIBUTES, OTEL_EXPORTER_OTLP_HEADERS). */
function keyValueList(raw: string | undefined, name: string, warnings: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of raw?.split(",") ?? []) {
    const eq = part.indexOf("=");
    const key = part.slice(0, eq).trim();
    if (eq < 1 || key === "") {
      if (part.trim() !== "") warnings.push(`${name}: ignored an entry that is not key=value`);
      continue;
    }
    try {
      out[key] = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      warnings.push(`${name}: ignored the value of "${key}" (bad percent-encoding)`);
    }
  }
  return out;
}

/** Is an exporter configured? `none` wins; `otlp`, or any OTLP endpoint, turns tracing on. */
function exporterWanted(env: OtelEnv, warnings: string[]): boolean {
  if (value(env, "OTEL_SDK_DISABLED")?.toLowerCase() === "true") return false;
  const exporters = (value(env, "OTEL_TRACES_EXPORTER") ?? "")
    .split(",")
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e !== "");
  if (exporters.includes("none")) return false;
  for (const e of exporters)
    if (e !== "otlp") warnings.push(`OTEL_TRACES_EXPORTER: "${e}" is not supported (otlp, none): ignored`);
  return (
    exporters.includes("otlp") ||
    value(env, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") !== undefined ||
    value(env, "OTEL_EXPORTER_OTLP_ENDPOINT") !== undefined
  );
}

/** The traces URL: the signal's endpoint as given, or the base endpoint plus `/v1/traces`. */
function tracesUrl(env: OtelEnv): { url: string; from: string } {
  const signal = value(env, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");
  if (signal !== undefined) return { url: signal, from: "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT" };
  const base = value(env, "OTEL_EXPORTER_OTLP_ENDPOINT");
  if (base !== undefined)
    return { url: `${base.replace(/\/+$/, "")}/v1/traces`, from: "OTEL_EXPORTER_OTLP_ENDPOINT" };
  return { url: DEFAULT_URL, from: "the default" };
}

function protocolOf(env: OtelEnv, warnings: string[]): OtlpProtocol {
  const name = value(env, "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
    ? "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"
    : "OTEL_EXPORTER_OTLP_PROTOCOL";
  const raw = value(env, name);
  if (raw === undefined) return "http/protobuf";
  if ((PROTOCOLS as readonly string[]).includes(raw)) return raw as OtlpProtocol;
  warnings.push(`${name}: "${raw}" is not supported (http/protobuf, http/json): using http/protobuf`);
  return "http/protobuf";
}

/** Milliseconds from the first of `names` that is set. */
function millis(env: OtelEnv, names: readonly string[], fallback: number, warnings: string[]): number {
  const name = names.find((n) => value(env, n) !== undefined);
  const raw = name === undefined ? undefined : value(env, name);
  if (raw === undefined) return fallback;
  const ms = Number(raw);
  if (Number.isInteger(ms) && ms > 0) return ms;
  warnings.push(`${name}: "${raw}" is not a positive number of milliseconds: using ${fallback}`);
  return fallback;
}

function samplerOf(env: OtelEnv, warnings: string[]): SamplerSettings {
  const raw = value(env, "OTEL_TRACES_SAMPLER")?.toLowerCase() ?? "parentbased_always_on";
  let kind = SAMPLERS[raw];
  if (!kind) {
    warnings.push(`OTEL_TRACES_SAMPLER: "${raw}" is not supported: using parentbased_always_on`);
    kind = { root: "always_on", parentBased: true };
  }
  let ratio = 1;
  const arg = value(env, "OTEL_TRACES_SAMPLER_ARG");
  if (kind.root === "traceidratio" && arg !== undefined) {
    const n = Number(arg);
    if (Number.isFinite(n) && n >= 0 && n <= 1) ratio = n;
    else warnings.push(`OTEL_TRACES_SAMPLER_ARG: "${arg}" is not a ratio in [0, 1]: using 1`);
  }
  return { ...kind, ratio };
}

/** Read the tracing settings from `env` (process.env in production). */
export function tracingSettingsFromEnv(env: OtelEnv): TracingEnvResult {
  const warnings: string[] = [];
  if (!exporterWanted(env, warnings)) return { settings: undefined, warnings };
  const { url, from } = tracesUrl(env);
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
    warnings.push(`${from}: "${url}" is not an http(s) URL: tracing is off`);
    return { settings: undefined, warnings };
  }
  const resourceAttributes = keyValueList(
    value(env, "OTEL_RESOURCE_ATTRIBUTES"),
    "OTEL_RESOURCE_ATTRIBUTES",
    warnings,
  );
  const headers = {
    ...keyValueList(value(env, "OTEL_EXPORTER_OTLP_HEADERS"), "OTEL_EXPORTER_OTLP_HEADERS", warnings),
    ...keyValueList(
      value(env, "OTEL_EXPORTER_OTLP_TRACES_HEADERS"),
      "OTEL_EXPORTER_OTLP_TRACES_HEADERS",
      warnings,
    ),
  };
  const settings: TracingSettings = {
    url,
    protocol: protocolOf(env, warnings),
    headers,
    timeoutMs: millis(
      env,
      ["OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", "OTEL_EXPORTER_OTLP_TIMEOUT"],
      DEFAULT_TIMEOUT_MS,
      warnings,
    ),
    scheduleDelayMs: millis(env, ["OTEL_BSP_SCHEDULE_DELAY"], DEFAULT_SCHEDULE_DELAY_MS, warnings),
    serviceName: value(env, "OTEL_SERVICE_NAME") ?? resourceAttributes["service.name"] ?? "switchyard",
    resourceAttributes,
    sampler: samplerOf(env, warnings),
  };
  return { settings, warnings };
}

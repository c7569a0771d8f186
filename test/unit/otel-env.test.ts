// The OTEL_* variables as the OpenTelemetry spec defines them: which turn tracing on, how the traces URL
// is built, and that unsupported values are warned about and ignored rather than fatal.
import { describe, expect, it } from "vitest";
import { tracingSettingsFromEnv } from "../../src/observability/otel-env.ts";

const on = (env: Record<string, string>) => {
  const { settings, warnings } = tracingSettingsFromEnv(env);
  if (!settings) throw new Error(`tracing off: ${warnings.join("; ")}`);
  return { settings, warnings };
};

describe("is tracing on", () => {
  it("is off with nothing set, or with only a service name or a sampler", () => {
    expect(tracingSettingsFromEnv({}).settings).toBeUndefined();
    expect(
      tracingSettingsFromEnv({ OTEL_SERVICE_NAME: "a", OTEL_TRACES_SAMPLER: "always_on" }).settings,
    ).toBeUndefined();
  });

  it("is on with an endpoint, or with OTEL_TRACES_EXPORTER=otlp (default collector URL)", () => {
    expect(on({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318" }).settings.url).toBe("http://c:4318/v1/traces");
    expect(on({ OTEL_TRACES_EXPORTER: "otlp" }).settings.url).toBe("http://localhost:4318/v1/traces");
  });

  it("none, and OTEL_SDK_DISABLED=true, win over an endpoint", () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318" };
    expect(
      tracingSettingsFromEnv({ ...endpoint, OTEL_TRACES_EXPORTER: "otlp,none" }).settings,
    ).toBeUndefined();
    expect(tracingSettingsFromEnv({ ...endpoint, OTEL_SDK_DISABLED: "true" }).settings).toBeUndefined();
  });

  it("an endpoint that is not an http(s) URL turns it off with a warning", () => {
    const { settings, warnings } = tracingSettingsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4317" });
    expect(settings).toBeUndefined();
    expect(warnings.join()).toMatch(/OTEL_EXPORTER_OTLP_ENDPOINT.*not an http\(s\) URL/);
  });
});

describe("exporter settings", () => {
  it("the signal's endpoint is used as given; the base endpoint gets /v1/traces once", () => {
    expect(
      on({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://base:4318",
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://traces.example/custom",
      }).settings.url,
    ).toBe("https://traces.example/custom");
    expect(on({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://base:4318/otlp/" }).settings.url).toBe(
      "http://base:4318/otlp/v1/traces",
    );
  });

  it("protocol: http/protobuf by default, http/json on request, anything else warned and ignored", () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318" };
    expect(on(endpoint).settings.protocol).toBe("http/protobuf");
    expect(on({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" }).settings.protocol).toBe("http/json");
    expect(
      on({
        ...endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/protobuf",
      }).settings.protocol,
    ).toBe("http/protobuf");
    const grpc = on({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" });
    expect(grpc.settings.protocol).toBe("http/protobuf");
    expect(grpc.warnings.join()).toMatch(/"grpc" is not supported/);
  });

  it("headers and resource attributes are percent-decoded key=value lists; the signal's headers win", () => {
    const { settings } = on({
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318",
      OTEL_EXPORTER_OTLP_HEADERS: "x-api-key=a%3Db,x-team=core",
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: "x-team=traces",
      OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=prod,service.name=from-resource",
    });
    expect(settings.headers).toEqual({ "x-api-key": "a=b", "x-team": "traces" });
    expect(settings.resourceAttributes["deployment.environment"]).toBe("prod");
    expect(settings.serviceName).toBe("from-resource");
    expect(on({ OTEL_TRACES_EXPORTER: "otlp" }).settings.serviceName).toBe("switchyard");
    expect(on({ OTEL_TRACES_EXPORTER: "otlp", OTEL_SERVICE_NAME: "gw" }).settings.serviceName).toBe("gw");
  });
});

describe("sampler", () => {
  const sampler = (env: Record<string, string>) => on({ OTEL_TRACES_EXPORTER: "otlp", ...env });

  it("parentbased_always_on by default", () => {
    expect(sampler({}).settings.sampler).toEqual({ root: "always_on", parentBased: true, ratio: 1 });
  });

  it("reads the ratio of a traceidratio sampler, and warns on a bad one", () => {
    expect(
      sampler({ OTEL_TRACES_SAMPLER: "parentbased_traceidratio", OTEL_TRACES_SAMPLER_ARG: "0.25" }).settings
        .sampler,
    ).toEqual({ root: "traceidratio", parentBased: true, ratio: 0.25 });
    const bad = sampler({ OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: "2" });
    expect(bad.settings.sampler).toEqual({ root: "traceidratio", parentBased: false, ratio: 1 });
    expect(bad.warnings.join()).toMatch(/OTEL_TRACES_SAMPLER_ARG/);
  });

  it("an unknown sampler is warned about and replaced by the default", () => {
    const r = sampler({ OTEL_TRACES_SAMPLER: "jaeger_remote" });
    expect(r.settings.sampler).toEqual({ root: "always_on", parentBased: true, ratio: 1 });
    expect(r.warnings.join()).toMatch(/jaeger_remote/);
  });
});

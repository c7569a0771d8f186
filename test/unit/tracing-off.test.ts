// Tracing off costs nothing: a process whose OTEL_* variables configure no exporter resolves not one
// OpenTelemetry module (the SDK is imported only when an exporter is configured, and then only the
// configured protocol's exporter), and a delivery without a span adds no header.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import type { Delivery } from "../../src/domain/hook.ts";
import { queueMessageHeaders } from "../../src/sinks/queue-message.ts";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../..", import.meta.url));

interface Loaded {
  readonly enabled: boolean;
  readonly total: number;
  readonly otel: readonly string[];
}

async function loadedWith(env: Record<string, string>): Promise<Loaded> {
  const { stdout } = await run(
    process.execPath,
    [
      "--import",
      "./test/support/import-recorder.mjs",
      "--import",
      "tsx",
      "test/support/tracing-imports-child.ts",
      JSON.stringify(env),
    ],
    { cwd: ROOT, env: { ...process.env, NODE_NO_WARNINGS: "1" }, timeout: 30_000 },
  );
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as Loaded;
}

const pkg = (url: string) => /\/@opentelemetry\/([^/]+)\//.exec(url)?.[1];

it("with no exporter configured, the gateway's module graph and startTracing load no OpenTelemetry module", async () => {
  const off = await loadedWith({ OTEL_SERVICE_NAME: "only-a-name", OTEL_TRACES_SAMPLER: "always_on" });
  expect(off.enabled).toBe(false);
  expect(off.total).toBeGreaterThan(100); // the recorder saw the gateway's graph
  expect(off.otel).toEqual([]);
}, 40_000);

it("with an OTLP endpoint, the SDK and only the configured protocol's exporter are loaded", async () => {
  const on = await loadedWith({
    OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9",
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
  });
  expect(on.enabled).toBe(true);
  const packages = new Set(on.otel.map(pkg));
  expect(packages).toContain("sdk-trace");
  expect(packages).toContain("exporter-trace-otlp-http");
  expect(packages).not.toContain("exporter-trace-otlp-proto");
}, 40_000);

it("a delivery without an attempt span sends no traceparent header", () => {
  const delivery = {
    hook: { id: "hk_1", source: "s", tenant: undefined, idempotencyKey: "-:s:k" },
    attempt: 1,
    replayId: undefined,
  } as unknown as Delivery;
  expect(Object.keys(queueMessageHeaders(delivery))).not.toContain("traceparent");
  const traced = { ...delivery, traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" };
  expect(queueMessageHeaders(traced).traceparent).toBe(traced.traceparent);
});

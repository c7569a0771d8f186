// A worker-only process (no api role): with http.metrics_port it serves its own /metrics, /healthz
// and /readyz, where its delivery metrics can be scraped; without, its boot log says what is missing
// (with the other config warnings).
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { type Receiver, startReceiver } from "../support/receiver.ts";
import { type TestGateway, eventually, startTestGateway, testConfig } from "../support/test-gateway.ts";

const running: TestGateway[] = [];
let rx: Receiver | undefined;
afterEach(async () => {
  for (const gw of running.splice(0).reverse()) await gw.stop();
  await rx?.close();
  rx = undefined;
});

describe("a worker-only process", () => {
  it("serves /metrics, /healthz and /readyz on http.metrics_port, and stops serving them on stop", async () => {
    rx = await startReceiver({ fallback: 200 });
    const config = testConfig({
      http: { metrics_port: 0 },
      sinks: { out: { type: "http", url: `${rx.url}/in` } },
      sources: { src: { verify: { type: "none" }, sinks: ["out"] } },
    });
    const web = await startTestGateway(config, { roles: ["api"] });
    running.push(web);
    const worker = await startTestGateway(config, { roles: ["dispatch"] });
    running.push(worker);
    expect(web.gateway.metricsPort).toBeUndefined();
    expect(worker.gateway.port).toBeUndefined();
    const base = `http://127.0.0.1:${worker.gateway.metricsPort}`;

    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${base}/readyz`)).json()).toEqual({ status: "ready" });
    expect((await fetch(`${web.url}/webhooks/src`, { method: "POST", body: "{}" })).status).toBe(202);
    const scrape = await eventually(async () => {
      const text = await (await fetch(`${base}/metrics`)).text();
      return /^switchyard_dispatch_attempts_total\{sink="out",result="ok"\} 1$/m.test(text)
        ? text
        : undefined;
    });
    expect(scrape).toMatch(/^switchyard_delivery_latency_seconds_count\{sink="out"\} 1$/m);
    expect(scrape).toMatch(/^switchyard_breaker_state\{sink="out"\} 0$/m);
    // The worker serves nothing else: no ingest, no admin API.
    expect((await fetch(`${base}/webhooks/src`, { method: "POST", body: "{}" })).status).toBe(404);

    await worker.gateway.stop();
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
  });

  it("logs the config warnings at boot, each under its key", async () => {
    const lines: { level: number; key?: string; msg: string }[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split("\n")) if (line) lines.push(JSON.parse(line));
        done();
      },
    });
    const config = testConfig({
      dispatch: { lock_ms: 2000, attempt_timeout_ms: 5000 },
      sinks: { bus: { type: "amqp", url: "amqp://127.0.0.1", exchange: "hooks" } },
      sources: { src: { verify: { type: "none" }, sinks: ["bus"] } },
    });
    running.push(
      await startTestGateway(config, { roles: ["dispatch"], logger: pino({ level: "info" }, sink) }),
    );
    const warnings = lines.filter((l) => l.level === 40 && l.key !== undefined);
    expect(warnings.map((w) => w.key)).toEqual(["http.public_url", "http.metrics_port"]);
    expect(warnings[0]?.msg).toMatch(/^config: http\.public_url: unset in a process that delivers/);

    // The same config in a process that serves the API has nothing to warn about.
    lines.length = 0;
    running.push(await startTestGateway(config, { logger: pino({ level: "info" }, sink) }));
    expect(lines.filter((l) => l.level === 40 && l.key !== undefined)).toEqual([]);
  });
});

// The boot-time config warnings: claim URLs a worker-only process would hand out on its own loopback
// address, and delivery metrics nobody scrapes.
import { describe, expect, it } from "vitest";
import { BUNDLED_CONFIG, loadConfig, parseConfig } from "../../src/config/load.ts";
import { type ProcessRoles, configWarnings } from "../../src/config/warnings.ts";

const ALL: ProcessRoles = { api: true, dispatch: true };
const WORKER: ProcessRoles = { api: false, dispatch: true };
const WEB: ProcessRoles = { api: true, dispatch: false };

/** A config whose timings are consistent (no warning) unless a test overrides them. */
function config(attemptMs = 30000, sinks = `out: { type: http, url: "http://localhost:9000/in" }`) {
  return parseConfig(
    `
http: { metrics_port: 9464 }
dispatch: { lock_ms: 30000, attempt_timeout_ms: ${attemptMs} }
outbound: { timeout_ms: 15000 }
sinks: { ${sinks} }
sources: { s: { verify: { type: none }, sinks: [${sinks.split(":")[0]}] } }
`,
    "x.yaml",
    {},
  );
}

describe("config warnings", () => {
  it("say nothing on a consistent config, an attempt longer than the lock included", () => {
    // An attempt is cancelled before a lease it cannot renew runs out (LeaseGuard), so a lock shorter
    // than an attempt no longer lets two attempts of one delivery overlap: nothing to warn about.
    expect(configWarnings(config(90_000), ALL)).toEqual([]);
    expect(configWarnings(config(), ALL)).toEqual([]);
    expect(configWarnings(config(), WORKER)).toEqual([]);
  });

  it("warn about claim URLs in a worker-only process without http.public_url, for routed queue sinks", () => {
    const amqp = `bus: { type: amqp, url: "amqp://localhost", exchange: hooks }`;
    const [warning, ...rest] = configWarnings(config(30000, amqp), WORKER);
    expect(rest).toEqual([]);
    expect(warning?.path).toBe("http.public_url");
    expect(warning?.message).toMatch(/sink bus as claim URLs on http:\/\/127\.0\.0\.1:3000/);
    // The process that serves the API, a public URL, or no queue sink: nothing to say.
    expect(configWarnings(config(30000, amqp), ALL)).toEqual([]);
    expect(configWarnings(config(30000, amqp), WEB)).toEqual([]);
    expect(configWarnings(config(), WORKER)).toEqual([]);
    const withUrl = parseConfig(
      `http: { public_url: "https://hooks.example.com", metrics_port: 9464 }\nsinks: { ${amqp} }\nsources: { s: { verify: { type: none }, sinks: [bus] } }\ndispatch: { lock_ms: 30000 }\noutbound: { timeout_ms: 10000 }\n`,
      "x.yaml",
      {},
    );
    expect(configWarnings(withUrl, WORKER)).toEqual([]);
  });

  it("ignore a queue sink no source routes to (it is never handed a hook)", () => {
    const c = parseConfig(
      `http: { metrics_port: 9464 }\ndispatch: { lock_ms: 30000 }\noutbound: { timeout_ms: 10000 }\nsinks: { out: { type: http, url: "http://localhost:1/x" }, stream: { type: kafka, brokers: ["k:9092"], topic: t } }\nsources: { s: { verify: { type: none }, sinks: [out] } }\n`,
      "x.yaml",
      {},
    );
    expect(configWarnings(c, WORKER)).toEqual([]);
  });

  it("warn that a worker-only process without http.metrics_port is never scraped", () => {
    const bare = parseConfig(
      `dispatch: { lock_ms: 30000 }\noutbound: { timeout_ms: 10000 }\nsinks: {}\nsources: {}\n`,
      "x.yaml",
      {},
    );
    expect(configWarnings(bare, WORKER)).toEqual([
      {
        path: "http.metrics_port",
        message: expect.stringMatching(
          /serves no \/metrics, so its delivery attempts, latency, dead letters/,
        ),
      },
    ]);
    expect(configWarnings(bare, ALL)).toEqual([]);
    expect(configWarnings(bare, WEB)).toEqual([]);
  });

  it("say nothing on the bundled config", () => {
    expect(configWarnings(loadConfig(BUNDLED_CONFIG, {}), ALL)).toEqual([]);
  });
});

// The boot-time config warnings: a BullMQ lock an attempt can outlast, and claim URLs a worker-only
// process would hand out on its own loopback address.
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
  it("say nothing when every attempt ends within the lock", () => {
    expect(configWarnings(config(), ALL)).toEqual([]);
    expect(configWarnings(config(), WORKER)).toEqual([]);
  });

  it("warn when an inbound attempt may outlast the lock, naming the sinks and the key to raise", () => {
    const c = config(45000);
    const [warning, ...rest] = configWarnings(c, ALL);
    expect(rest).toEqual([]);
    expect(warning?.path).toBe("dispatch.lock_ms");
    expect(warning?.message).toMatch(/30000 ms is shorter than an attempt of sink out may run/);
    expect(warning?.message).toMatch(/attempt_timeout_ms 45000 ms/);
    expect(warning?.message).toMatch(/duplicate delivery/);
    expect(warning?.message).toMatch(/Raise dispatch.lock_ms to 45000/);
  });

  it("warn when an outbound attempt (timeout_ms + 1 s) may outlast the lock", () => {
    const equal = parseConfig(
      `http: { metrics_port: 9464 }\ndispatch: { lock_ms: 15000, attempt_timeout_ms: 10000 }\noutbound: { timeout_ms: 15000 }\nsinks: {}\nsources: {}\n`,
      "x.yaml",
      {},
    );
    const [warning, ...rest] = configWarnings(equal, WORKER);
    expect(rest).toEqual([]);
    expect(warning?.message).toMatch(
      /shorter than an outbound attempt may run \(outbound.timeout_ms 15000 ms \+ 1 s\)/,
    );
    expect(warning?.message).toMatch(/Raise dispatch.lock_ms to 16000/);
    const fine = parseConfig(
      `http: { metrics_port: 9464 }\ndispatch: { lock_ms: 16000, attempt_timeout_ms: 10000 }\noutbound: { timeout_ms: 15000 }\nsinks: {}\nsources: {}\n`,
      "x.yaml",
      {},
    );
    expect(configWarnings(fine, WORKER)).toEqual([]);
  });

  it("leave the log sink out (it never waits) and say nothing in a process that does not deliver", () => {
    const logOnly = parseConfig(
      `dispatch: { lock_ms: 20000, attempt_timeout_ms: 90000 }\nsinks: { audit: { type: log } }\nsources: { s: { verify: { type: none }, sinks: [audit], allow_non_durable: true } }\n`,
      "x.yaml",
      {},
    );
    expect(configWarnings(logOnly, ALL)).toEqual([]);
    expect(configWarnings(config(45000), WEB)).toEqual([]);
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

  it("on the bundled config, warn only that outbound attempts outlast the default lock", () => {
    const bundled = loadConfig(BUNDLED_CONFIG, {});
    expect(configWarnings(bundled, ALL).map((w) => w.message)).toEqual([
      expect.stringMatching(/^10000 ms is shorter than an outbound attempt may run/),
    ]);
  });
});

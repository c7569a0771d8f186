// print-config is pasted into tickets: a config full of credentials, each a distinct marker, must come
// out with none of them, in YAML and in JSON, while what an operator needs to read stays.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it, onTestFinished } from "vitest";
import { printConfig } from "../../src/cli/commands/config.ts";

const markers: string[] = [];
/** A fresh credential marker, remembered so the test can look for it. */
const m = (): string => {
  const marker = `mk${randomBytes(10).toString("hex")}`;
  markers.push(marker);
  return marker;
};

function plantedConfig(): string {
  return `
redis: { url: "redis://${m()}:${m()}@redis.internal:6379/0?password=${m()}", prefix: sy }
http:
  port: 3000
  claim_signing_key: "${m()}${m()}"
  public_url: "https://${m()}:${m()}@hooks.example.com/base?token=${m()}#${m()}"
admin:
  tokens: ["${m()}", { token: "${m()}", tenant: acme }]
sinks:
  forward:
    type: http
    url: "https://${m()}:${m()}@api.example.com/hooks?token=${m()}&sig=${m()}"
    headers:
      X-Auth-Token: "${m()}"
      PRIVATE-TOKEN: "${m()}"
      Authorization: "Bearer ${m()}"
      X-Anything: "${m()}"
    secret: "${m()}"
  slack:
    type: http
    url: "https://hooks.slack.com/services/T${m()}/B${m()}/${m()}"
  deep:
    type: http
    url: "https://relay.example.com/in/${m()}/"
  bus:
    type: amqp
    url: "amqps://${m()}:${m()}@rabbit.internal:5671/vhost?heartbeat=${m()}"
    exchange: hooks
  stream:
    type: kafka
    brokers: ["${m()}:${m()}@kafka1.internal:9092", "sasl_ssl://${m()}:${m()}@kafka2.internal:9093", "kafka3.internal:9092"]
    topic: hooks
    sasl: { mechanism: plain, username: svc-switchyard, password: "${m()}" }
sources:
  stripe:
    tenant: acme
    verify: { type: stripe, secrets: ["${m()}", "${m()}"] }
    sinks: [forward, slack, deep, bus, stream]
  custom:
    verify: { type: hmac, header: x-sig, secrets: ["${m()}"] }
    sinks: [forward]
  per_tenant:
    tenants: [north, south]
    verify: { type: github, secrets_by_tenant: { north: ["${m()}"], south: ["${m()}", "${m()}"] } }
    sinks: [forward]
`;
}

function run(json: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), "sy-redact-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, "switchyard.yaml");
  writeFileSync(file, plantedConfig());
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (d: Buffer) => (out += d.toString()));
  stderr.on("data", (d: Buffer) => (err += d.toString()));
  const code = printConfig(file, json, { stdout, stderr, env: {} });
  expect(err).toBe("");
  expect(code).toBe(0);
  return out;
}

describe("print_config_leaks_secrets", () => {
  for (const json of [false, true]) {
    it(`prints none of the planted credentials (${json ? "JSON" : "YAML"})`, () => {
      markers.length = 0;
      const out = run(json);
      expect(markers.length).toBeGreaterThan(25);
      const leaked = markers.filter((marker) => out.includes(marker));
      expect(leaked.map((l) => out.split("\n").find((line) => line.includes(l)))).toEqual([]);
      // What an operator needs to read is still there.
      for (const visible of [
        "redis.internal:6379",
        "hooks.example.com/base",
        "api.example.com/hooks",
        // A URL path beyond its first segment may be a credential (Slack's /services/T…/B…/…).
        "https://hooks.slack.com/services/[redacted]",
        "https://relay.example.com/in/[redacted]",
        "rabbit.internal:5671/vhost",
        "kafka1.internal:9092",
        "kafka2.internal:9093",
        "kafka3.internal:9092",
        "X-Auth-Token",
        "PRIVATE-TOKEN",
        "svc-switchyard",
        "acme",
        "north",
        "south",
      ]) {
        expect(out).toContain(visible);
      }
    });
  }
});

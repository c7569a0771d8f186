// Shared fixtures for the verifier tests: a fixed clock, request builders, and a way to build a VerifyConfig
// through the real config schema so defaults (tolerance 300 s, lower-cased header names) are the real ones.
import { configSchema, type VerifyConfig } from "../../../src/config/schema.ts";
import type { VerifyOutcome } from "../../../src/ingest/verify/index.ts";
import { expect } from "vitest";

/** A fixed "now" on a whole second, so provider timestamps (seconds) line up exactly. */
export const NOW_MS = 1_750_000_000_000;
export const NOW_S = NOW_MS / 1000;

export const BODY = '{"id":"evt_1","object":"event","data":{"amount":4200,"note":"héllo"}}';

/** Parse a `verify:` block through the full config schema, exactly as boot would. */
export function viaSchema(verify: unknown): VerifyConfig {
  const cfg = configSchema().parse({
    sinks: { audit: { type: "log" } },
    sources: { src: { verify, sinks: ["audit"], allow_non_durable: true } },
  });
  const source = cfg.sources["src"];
  if (source === undefined) throw new Error("source missing after parse");
  return source.verify;
}

export function req(headers: Record<string, string>, body: string | Buffer = BODY) {
  return { headers, body: typeof body === "string" ? Buffer.from(body, "utf8") : body };
}

/** The body with one byte changed. */
export function tampered(body: string = BODY): Buffer {
  const buf = Buffer.from(body, "utf8");
  buf[5] = (buf[5] ?? 0) ^ 0x01;
  return buf;
}

export function expectFail(outcome: VerifyOutcome, reason: RegExp): void {
  expect(outcome.ok).toBe(false);
  if (!outcome.ok) expect(outcome.reason).toMatch(reason);
}

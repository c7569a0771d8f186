// A sink type added from outside src/ by one folder and one registration line: the config names it and
// checks its keys, its traits drive the durable refusal, the claim-URL warning and the AsyncAPI
// document, and it receives deliveries end to end through the ledger on real Redis.
import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { asyncApiForConfig } from "../../src/api/asyncapi-document.ts";
import { parseConfig } from "../../src/config/load.ts";
import { configWarnings } from "../../src/config/warnings.ts";
import { silentLogger } from "../../src/observability/logger.ts";
import { registerSink } from "../../src/sinks/registry.ts";
import { sendHook, waitForState } from "../support/hooks.ts";
import { attemptsOf, memorySink, received } from "../support/sinks/memory-sink/plugin.ts";
import { type TestGateway, eventually, startTestGateway, testConfig } from "../support/test-gateway.ts";

registerSink(memorySink);

let gw: TestGateway | undefined;
afterEach(async () => {
  await gw?.stop();
  gw = undefined;
});

const bucketName = (): string => `b${randomBytes(4).toString("hex")}`;

const yaml = (sink: string, source = "verify: { type: none }, sinks: [mem], allow_non_durable: true") =>
  `sinks: { mem: ${sink} }\nsources: { s: { ${source} } }`;

describe("a sink type registered by a test", () => {
  it("is a config type whose own keys are checked, unknown ones named with the key meant", () => {
    const config = parseConfig(yaml("{ type: memory, bucket: a }"), "x.yaml", {});
    expect(config.sinks.mem).toMatchObject({ type: "memory", bucket: "a", fail_first: 0 });
    expect(() => parseConfig(yaml("{ type: memory, buckt: a }"), "x.yaml", {})).toThrow(
      /sinks\.mem\.buckt: unknown key \(did you mean bucket\?\)/,
    );
    expect(() => parseConfig(yaml("{ type: memory }"), "x.yaml", {})).toThrow(/sinks\.mem\.bucket:/);
  });

  it("is refused as a source's only sink by its non-durable trait, named by type", () => {
    expect(() =>
      parseConfig(yaml("{ type: memory, bucket: a }", "verify: { type: none }, sinks: [mem]"), "x.yaml", {}),
    ).toThrow(/sources\.s\.sinks: every sink of this source is non-durable \(memory\)/);
  });

  it("takes the claim check by its trait: a worker without public_url is warned about it", () => {
    const config = parseConfig(yaml("{ type: memory, bucket: a }"), "x.yaml", {});
    const warnings = configWarnings(config, { api: false, dispatch: true });
    expect(warnings.find((w) => w.path === "http.public_url")?.message).toContain("sink mem");
  });

  it("is described in the AsyncAPI document under its protocol", async () => {
    const config = parseConfig(yaml("{ type: memory, bucket: orders }"), "x.yaml", {});
    const doc = (await asyncApiForConfig(config, silentLogger())) as {
      channels: Record<string, { address: string }>;
      servers: Record<string, { protocol: string }>;
    };
    expect(doc.channels["mem"]?.address).toBe("orders");
    expect(Object.values(doc.servers)).toContainEqual({ host: "localhost", protocol: "memory" });
  });

  it("receives deliveries end to end: retried through the ledger, large bodies as claims", async () => {
    const bucket = bucketName();
    gw = await startTestGateway(
      testConfig({
        sinks: { mem: { type: "memory", bucket, fail_first: 1, claim_check_bytes: 64 } },
        sources: { s: { verify: { type: "none" }, sinks: ["mem"], allow_non_durable: true } },
      }),
    );
    const small = await sendHook(gw, "s", '{"n":1}', { "content-type": "application/json" });
    const state = await waitForState(gw, small, "mem", "delivered");
    expect(state.attempts).toBe(2);
    const big = await sendHook(gw, "s", JSON.stringify({ pad: "x".repeat(200) }));
    await waitForState(gw, big, "mem", "delivered");
    const deliveries = await eventually(() => received(bucket).length === 2 && received(bucket));
    expect(attemptsOf(bucket)).toBe(3);
    expect(deliveries[0]).toMatchObject({ sink: "mem", attempt: 2, claim: undefined });
    expect(deliveries[0]?.hook.id).toBe(small);
    expect(deliveries[0]?.hook.body.toString()).toBe('{"n":1}');
    expect(deliveries[1]?.hook.id).toBe(big);
    expect(deliveries[1]?.claim?.url).toContain(`/v1/claims/${big}`);
  });
});

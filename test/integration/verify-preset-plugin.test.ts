// A verification preset added from outside src/ by one module and one registration line: the config
// names it and checks its keys, its dedup preset is a `dedup:` value, its signature coverage decides the
// boot-time pairing with dedup, and a running gateway verifies and deduplicates with it on real Redis.
import { createHmac } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config/load.ts";
import { configWarnings } from "../../src/config/warnings.ts";
import { registerVerifyPreset } from "../../src/ingest/verify/registry.ts";
import { acmePreset } from "../support/verify-presets/acme/preset.ts";
import { type TestGateway, startTestGateway, testConfig } from "../support/test-gateway.ts";

registerVerifyPreset(acmePreset);

let gw: TestGateway | undefined;
afterEach(async () => {
  await gw?.stop();
  gw = undefined;
});

const SECRET = "acme-signing-secret";

const yaml = (source: string) =>
  `sinks: { out: { type: http, url: "http://127.0.0.1:9/in" } }\nsources: { s: { ${source}, sinks: [out] } }`;

const signed = (id: string, body: string, secret = SECRET): Record<string, string> => ({
  "content-type": "application/json",
  "x-acme-id": id,
  "x-acme-signature": createHmac("sha256", secret).update(`${id}.${body}`).digest("hex"),
});

describe("a verification preset registered by a test", () => {
  it("is a verify type whose own keys are checked, and its dedup preset a dedup value", () => {
    const config = parseConfig(
      yaml(`verify: { type: acme, secrets: [${SECRET}] }, dedup: acme`),
      "x.yaml",
      {},
    );
    expect(config.sources.s).toMatchObject({ verify: { type: "acme", secrets: [SECRET] }, dedup: "acme" });
    expect(() => parseConfig(yaml(`verify: { type: acme, secret: [${SECRET}] }`), "x.yaml", {})).toThrow(
      /sources\.s\.verify\.secret: unknown key \(did you mean secrets\?\)/,
    );
  });

  it("refuses at boot a header dedup its signature does not cover, naming its own dedup preset", () => {
    expect(() =>
      parseConfig(yaml(`verify: { type: acme, secrets: [${SECRET}] }, dedup: github`), "x.yaml", {}),
    ).toThrow(
      /sources\.s\.dedup: keys on x-github-delivery, which a acme signature does not cover \(it signs x-acme-id\).*Use dedup acme \(the id the signature covers\)/,
    );
    const agreeing = parseConfig(
      yaml(`verify: { type: acme, secrets: [${SECRET}] }, dedup: { header: x-acme-id }`),
      "x.yaml",
      {},
    );
    expect(configWarnings(agreeing, { api: true, dispatch: true })).toEqual([]);
  });

  it("lets a body-only preset's source dedup on the acme id, with the unsigned-header warning", () => {
    const config = parseConfig(yaml(`verify: { type: github, secrets: [gh] }, dedup: acme`), "x.yaml", {});
    const warning = configWarnings(config, { api: true, dispatch: false }).find(
      (w) => w.path === "sources.s.dedup",
    );
    expect(warning?.message).toContain("keys on x-acme-id, which a github signature does not cover");
  });

  it("verifies and deduplicates on the id it signed, on a running gateway", async () => {
    gw = await startTestGateway(
      testConfig({
        sinks: { out: { type: "http", url: "http://127.0.0.1:9/in" } },
        sources: { s: { verify: { type: "acme", secrets: [SECRET] }, dedup: "acme", sinks: ["out"] } },
      }),
      { roles: ["api"] },
    );
    const post = async (body: string, headers: Record<string, string>) => {
      const res = await fetch(`${gw!.url}/webhooks/s`, { method: "POST", body, headers });
      return { status: res.status, json: (await res.json()) as { status?: string; id?: string } };
    };
    const first = await post('{"n":1}', signed("msg_1", '{"n":1}'));
    expect(first.status).toBe(202);
    // Another body under the same signed id is the same message; another id is a new one.
    expect(await post('{"n":2}', signed("msg_1", '{"n":2}'))).toEqual({
      status: 200,
      json: { status: "duplicate", id: first.json.id },
    });
    expect((await post('{"n":1}', signed("msg_2", '{"n":1}'))).status).toBe(202);
    expect((await post('{"n":1}', signed("msg_3", '{"n":1}', "wrong-secret"))).status).toBe(401);
    expect((await post('{"n":1}', { "x-acme-id": "msg_4" })).status).toBe(401);
  });
});

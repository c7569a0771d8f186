// GET /asyncapi.json: a valid AsyncAPI 3.0 document of the queue sinks, built from the live config with
// the real sink implementations, and never carrying a credential.
import { DiagnosticSeverity, Parser } from "@asyncapi/parser";
import ajvModule from "ajv";
import formats from "ajv-formats";
import { afterEach, describe, expect, it } from "vitest";
import { buildAsyncApiDocument, sanitizeHost } from "../../src/api/asyncapi-document.ts";
import { hookMessageSchema } from "../../src/api/asyncapi-message.ts";
import { OPERATIONAL_CHANNEL, operationalComponentId } from "../../src/api/asyncapi-operational.ts";
import { OPERATIONAL_TYPES } from "../../src/domain/operational-events.ts";
import { OPERATIONAL_SCHEMAS } from "../../src/domain/operational-schemas.ts";
import type { HookRecord } from "../../src/domain/hook.ts";
import { buildQueueMessage } from "../../src/sinks/queue-message.ts";
import type { SinkDescription } from "../../src/sinks/sink.ts";
import { type TestGateway, startTestGateway, testConfig } from "../support/test-gateway.ts";

let gw: TestGateway | undefined;
afterEach(async () => {
  await gw?.stop();
  gw = undefined;
});

/** Validation problems of severity error, as readable lines. */
async function errorsOf(doc: unknown): Promise<string[]> {
  const diagnostics = await new Parser().validate(JSON.stringify(doc));
  return diagnostics
    .filter((d) => d.severity === DiagnosticSeverity.Error)
    .map((d) => `${d.code}: ${d.message} at ${d.path.join(".")}`);
}

const HTTP_SECRET = `whsec_${Buffer.from("http-signing-key-s3cret").toString("base64")}`;

const liveConfig = () =>
  testConfig({
    sinks: {
      bus: {
        type: "amqp",
        url: "amqp://svc-user:amqp-s3cret-pw@127.0.0.1:5672/prod",
        exchange: "hooks",
        routing_key: "{source}.{tenant}",
      },
      stream: {
        type: "kafka",
        brokers: ["kuser:kafka-s3cret-pw@127.0.0.1:9092", "127.0.0.1:9093"],
        topic: "hooks.inbound",
        sasl: { mechanism: "plain", username: "kuser", password: "sasl-s3cret-pw" },
      },
      forward: { type: "http", url: "http://127.0.0.1:9/in", secret: HTTP_SECRET },
      audit: { type: "log" },
    },
    sources: {
      stripe: {
        tenant: "acme",
        verify: { type: "stripe", secrets: ["whsec_src-s3cret"] },
        sinks: ["bus", "stream"],
      },
      github: { verify: { type: "github", secrets: ["gh-s3cret"] }, sinks: ["bus", "forward", "audit"] },
    },
  });

describe("asyncapi.json", () => {
  it("serves a valid AsyncAPI 3.0 document of the amqp and kafka sinks, without credentials", async () => {
    gw = await startTestGateway(liveConfig(), { roles: ["api"], listen: false });
    const res = await gw.gateway.app!.request("/asyncapi.json"); // public: no token
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    const text = await res.text();
    const doc = JSON.parse(text) as {
      asyncapi: string;
      servers: Record<string, { host: string; protocol: string }>;
      channels: Record<string, { address: string; parameters?: Record<string, { enum?: string[] }> }>;
      operations: Record<string, { action: string }>;
    };

    expect(await errorsOf(doc)).toEqual([]);
    expect(doc.asyncapi).toBe("3.0.0");
    // Only queue sinks (payload "message") get a channel: not the http sink, not the log sink.
    expect(Object.keys(doc.channels).sort()).toEqual(["bus", OPERATIONAL_CHANNEL, "stream"]);
    expect(doc.channels.bus).toMatchObject({
      address: "hooks/{source}.{tenant}",
      parameters: { source: { enum: ["stripe", "github"] } },
      bindings: { amqp: { exchange: { name: "hooks", vhost: "prod" } } },
    });
    expect(doc.channels.stream!.address).toBe("hooks.inbound");
    expect(
      Object.values(doc.servers)
        .map((s) => `${s.protocol} ${s.host}`)
        .sort(),
    ).toEqual(["amqp 127.0.0.1:5672", "kafka 127.0.0.1:9092", "kafka 127.0.0.1:9093"]);
    expect(Object.values(doc.operations).every((o) => o.action === "send")).toBe(true);
    for (const secret of ["s3cret", "svc-user", "kuser", "whsec_", HTTP_SECRET.slice(6)]) {
      expect(text).not.toContain(secret);
    }
  });
});

describe("operational events in asyncapi.json", () => {
  const config = testConfig({ sinks: { log: { type: "log" } }, sources: {} });

  it("has one message per operational type, its example valid against its payload schema, in a valid document", async () => {
    const doc = buildAsyncApiDocument(config, () => undefined) as {
      channels: Record<string, { messages: Record<string, unknown> }>;
      components: {
        messages: Record<string, { name: string; examples: { payload: unknown }[] }>;
        schemas: Record<string, object>;
      };
    };
    // The parser does not check examples: ajv does, against the envelope the message declares.
    const ajv = new ajvModule.default({ strict: true, allErrors: true });
    formats.default(ajv);
    expect(await errorsOf(doc)).toEqual([]);
    const channel = doc.channels[OPERATIONAL_CHANNEL]!;
    expect(Object.keys(channel.messages)).toEqual(OPERATIONAL_TYPES.map(operationalComponentId));
    for (const type of OPERATIONAL_TYPES) {
      const message = doc.components.messages[operationalComponentId(type)]!;
      expect(message.name).toBe(type);
      const example = message.examples[0]!.payload;
      expect(example).toMatchObject({ type, data: OPERATIONAL_SCHEMAS[type].example });
      const validate = ajv.compile(doc.components.schemas[operationalComponentId(type)]!);
      expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
      expect(validate({ ...(example as object), type: "switchyard.other" })).toBe(false);
    }
  });
});

describe("buildAsyncApiDocument", () => {
  it("scrubs userinfo a sink might leak, and splits sources that publish to different addresses", async () => {
    const config = testConfig({
      sinks: { q: { type: "amqp", url: "amqp://127.0.0.1", exchange: "x" } },
      sources: {
        a: { verify: { type: "none" }, sinks: ["q"] },
        b: { verify: { type: "none" }, sinks: ["q"] },
      },
    });
    // A careless sink: credentials in its host and in a binding, and a per-source address.
    const describe = (_sink: string, { source }: { source: string }): SinkDescription => ({
      payload: "message",
      protocol: "amqp",
      host: "amqps://leakyuser:leaky-pw@mq.example:5671/vhost",
      address: `x/${source}`,
      bindings: {
        amqp: {
          is: "routingKey",
          exchange: { name: "x", vhost: "amqp://leakyuser:leaky-pw@mq.example/v" },
          bindingVersion: "0.3.0",
        },
      },
    });
    const doc = buildAsyncApiDocument(config, describe);
    const text = JSON.stringify(doc);
    expect(text).not.toContain("leaky-pw");
    expect(text).not.toContain("leakyuser");
    expect(Object.keys(doc.channels as object).sort()).toEqual([OPERATIONAL_CHANNEL, "q-1", "q-2"]);
    expect(doc.servers).toEqual({ "amqp-mq_example_5671": { host: "mq.example:5671", protocol: "amqp" } });
    expect(await errorsOf(doc)).toEqual([]);
  });

  it("sanitizes hosts of every shape", () => {
    expect(sanitizeHost("amqp://u:p@h:1/v")).toBe("h:1");
    expect(sanitizeHost("u:p@h:9092")).toBe("h:9092");
    expect(sanitizeHost("h:9092")).toBe("h:9092");
    expect(sanitizeHost("https://h/path?q=1")).toBe("h");
    expect(sanitizeHost("amqp://u:p@[::1]:5672")).toBe("[::1]:5672");
  });

  it("describes every field the queue message v1 carries, inline or by claim", () => {
    const hook: HookRecord = {
      id: "hk_01m8qm43r5hfm45y36yb13y58a",
      source: "s",
      tenant: "t",
      receivedAt: 0,
      contentType: "application/json",
      headers: {},
      body: Buffer.from("{}"),
      sha256: "0".repeat(64),
      dedupKey: "d",
      idempotencyKey: "t:s:d",
      sinks: ["q"],
    };
    const claim = { id: hook.id, url: "http://gw/v1/claims/x", sha256: hook.sha256, size: 2 };
    const delivery = { hook, sink: "q", attempt: 1, replayId: undefined, claim };
    const described = Object.keys(hookMessageSchema.properties);
    for (const message of [buildQueueMessage(delivery, 1000), buildQueueMessage(delivery, 1)]) {
      for (const field of Object.keys(message)) expect(described).toContain(field);
      for (const field of hookMessageSchema.required) expect(Object.keys(message)).toContain(field);
    }
  });
});

describe("openapi.json", () => {
  it("serves an OpenAPI 3.1 document whose paths the app really routes", async () => {
    gw = await startTestGateway(liveConfig(), { roles: ["api"], listen: false });
    const app = gw.gateway.app!;
    const res = await app.request("/openapi.json");
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(doc.openapi).toBe("3.1.0");
    for (const [path, ops] of Object.entries(doc.paths)) {
      const concrete = path
        .replace("{source}", "stripe")
        .replace("{tenant}", "acme")
        .replace("{id}", "hk_00000000000000000000000000");
      for (const method of Object.keys(ops)) {
        const answer = await app.request(concrete, { method: method.toUpperCase() });
        const body = answer.headers.get("content-type")?.includes("json") ? await answer.text() : "";
        // Anything but the app's catch-all 404 (and 405) shows a route exists.
        expect(body, `${method.toUpperCase()} ${path}`).not.toContain("no such route");
        expect(answer.status, `${method.toUpperCase()} ${path}`).not.toBe(405);
      }
    }
  });
});

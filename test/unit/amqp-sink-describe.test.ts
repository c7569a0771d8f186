import { describe, expect, it } from "vitest";
import type { AmqpSinkConfig } from "../../src/sinks/amqp/config.ts";
import { silentLogger } from "../../src/observability/logger.ts";
import { brokerHost, createAmqpSink } from "../../src/sinks/amqp/amqp-sink.ts";
import { sinkTraits } from "../../src/sinks/registry.ts";

const config = (over: Partial<AmqpSinkConfig> = {}): AmqpSinkConfig => ({
  type: "amqp",
  url: "amqp://svc:s3cret@rabbit.internal/prod%2Fhooks",
  exchange: "hooks",
  routing_key: "{source}.{tenant}",
  max_in_flight: 10,
  ...over,
});
const deps = { logger: silentLogger(), defaultClaimCheckBytes: 65_536 };

describe("amqp sink description and shape", () => {
  it("describes host without credentials, exchange/template address, and an AsyncAPI amqp binding", () => {
    const sink = createAmqpSink("bus", config(), deps);
    const d = sink.describe({ source: "stripe", tenant: undefined });
    expect(d).toEqual({
      payload: "message",
      protocol: "amqp",
      host: "rabbit.internal:5672",
      address: "hooks/{source}.{tenant}",
      bindings: {
        amqp: { is: "routingKey", exchange: { name: "hooks", vhost: "prod/hooks" }, bindingVersion: "0.3.0" },
      },
    });
    expect(JSON.stringify(d)).not.toContain("s3cret");
    expect(JSON.stringify(d)).not.toContain("svc");
  });

  it("is durable, named, and takes its inline limit from claim_check_bytes or the dispatch default", async () => {
    const own = createAmqpSink("bus", config({ claim_check_bytes: 1024 }), deps);
    const dflt = createAmqpSink("bus2", config(), deps);
    expect(own).toMatchObject({ name: "bus", type: "amqp", inlineMaxBytes: 1024 });
    expect(sinkTraits(own.type)).toMatchObject({ durable: true, claimCheck: true });
    expect(dflt.inlineMaxBytes).toBe(65_536);
    // Nothing was opened, so closing is immediate.
    await own.close();
    await dflt.close();
    expect(own.stats().connectAttempts).toBe(0);
  });

  it("brokerHost defaults the port by scheme and keeps IPv6 brackets", () => {
    expect(brokerHost("amqps://u:p@mq.example:5673/")).toBe("mq.example:5673");
    expect(brokerHost("amqps://mq.example")).toBe("mq.example:5671");
    expect(brokerHost("amqp://[::1]")).toBe("[::1]:5672");
  });
});

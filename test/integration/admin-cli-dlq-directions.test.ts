// `switchyard dlq list` against a DLQ holding dead deliveries of both directions: an inbound one (a
// hook to a sink) and an outbound one (an event to an endpoint). Outbound rows once crashed the table
// (it read a `sink` they do not have) and showed their event type as a source.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runSwitchyard } from "../support/cli.ts";
import { createEndpoint, publish } from "../support/outbound.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";
import { type TestGateway, eventually, startTestGateway, testConfig } from "../support/test-gateway.ts";
import { deadHooks, dlqSize } from "./admin-fixtures.ts";

let rx: Receiver;
let gw: TestGateway;
let hookId: string;
let endpointId: string;

beforeAll(async () => {
  rx = await startReceiver({ fallback: 410 });
  gw = await startTestGateway(
    testConfig({
      outbound: { allow_private: true },
      sinks: { out: { type: "http", url: `${rx.url}/in` } },
      sources: { src: { verify: { type: "none" }, sinks: ["out"] } },
    }),
  );
  [hookId] = (await deadHooks(gw, "src", 1)) as [string];
  endpointId = (await createEndpoint(gw, { url: `${rx.url}/ep`, event_types: ["order.*"] })).id;
  await publish(gw, { id: "dead-1", type: "order.paid", payload: { n: 1 } });
  await eventually(async () => (await dlqSize(gw)) >= 2, 30_000, "the outbound delivery to be dead");
}, 60_000);

afterAll(async () => {
  await gw.stop();
  await rx.close();
});

describe("dlq list with inbound and outbound entries", () => {
  it("prints one table with the direction, target and source or event type of each", async () => {
    const run = await runSwitchyard(gw.url, ["dlq", "list"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^DEAD AT\s+ID\s+DIRECTION\s+SOURCE\/TYPE\s+TARGET\s+TENANT\s+CLASS/);
    expect(lines).toHaveLength(3);
    const inbound = lines.find((l) => /\binbound\b/.test(l));
    const outbound = lines.find((l) => /\boutbound\b/.test(l));
    expect(inbound).toMatch(/\binbound\s+src\s+out\s+-\s+permanent\s+1\s+HTTP 410/);
    expect(outbound).toContain(endpointId);
    expect(outbound).toMatch(/\boutbound\s+order\.paid\s+ep_\w+\s+-\s+permanent\s+1\s+HTTP 410/);
  });

  it("--json shows one entry shape for both directions", async () => {
    const run = await runSwitchyard(gw.url, ["dlq", "list", "--json"]);
    expect(run.code).toBe(0);
    const entries = (JSON.parse(run.stdout) as { data: Record<string, unknown>[] }).data;
    const byDirection = Object.fromEntries(entries.map((e) => [e.direction, e]));
    expect(byDirection.inbound).toMatchObject({
      direction: "inbound",
      target: "out",
      sink: "out",
      source: "src",
      hook_id: hookId,
    });
    expect(byDirection.inbound).not.toHaveProperty("event_type");
    expect(byDirection.outbound).toMatchObject({
      direction: "outbound",
      target: endpointId,
      endpoint: endpointId,
      event_type: "order.paid",
      event_id: "dead-1",
    });
    expect(byDirection.outbound).not.toHaveProperty("source");
  });

  it("--endpoint narrows to one endpoint's dead deliveries, and --sink to a sink's", async () => {
    const [byEndpoint, bySink, bad] = await Promise.all([
      runSwitchyard(gw.url, ["dlq", "list", "--endpoint", endpointId]),
      runSwitchyard(gw.url, ["dlq", "list", "--sink", "out"]),
      runSwitchyard(gw.url, ["dlq", "list", "--endpoint", "nope"]),
    ]);
    expect(byEndpoint.code).toBe(0);
    expect(byEndpoint.stdout.trim().split("\n").slice(1)).toEqual([
      expect.stringMatching(new RegExp(`\\boutbound\\s+order\\.paid\\s+${endpointId}\\b`)),
    ]);
    expect(bySink.code).toBe(0);
    expect(bySink.stdout.trim().split("\n").slice(1)).toEqual([
      expect.stringMatching(/\binbound\s+src\s+out\b/),
    ]);
    expect(bad.code).toBe(64);
    expect(bad.stderr).toContain('"nope" is not an endpoint id (ep_…)');
  });
});

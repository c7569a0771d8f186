// A replay whose job was lost (never added after its record was written, or removed from the replays
// queue) used to stay `running` for good: nothing but its job ever moves it. The recovery tick gives
// such a replay its job back, so a runner resumes it from its cursor and finishes it.
import { expect, it } from "vitest";
import { ReplayStore } from "../../src/store/replay-store.ts";
import { admin } from "./admin-fixtures.ts";
import { gateway, useOutboundTeardown } from "../support/outbound.ts";
import { eventually, testConfig } from "../support/test-gateway.ts";

useOutboundTeardown();

it("a running replay whose job was lost is resumed by recovery, not left running for good", async () => {
  const gw = await gateway(
    testConfig({
      recovery: { interval_ms: 300 },
      sinks: { log: { type: "log" } },
      sources: { src: { verify: { type: "none" }, sinks: ["log"], allow_non_durable: true } },
    }),
  );
  const store = new ReplayStore(gw.redis, gw.gateway.keys, gw.config.retention_s);
  // The record, as POST /v1/replays writes it, with no job behind it.
  const created = await store.create(
    {
      tenant: undefined,
      filter: {},
      rate_per_s: 100,
      index: "all",
      targets: undefined,
      total_estimate: 0,
      created_at: Date.now(),
    },
    gw.config.replays.max_per_tenant,
  );
  if (created.kind !== "created") throw new Error(`replay not created: ${created.kind}`);
  const record = created.record;
  expect(record.state).toBe("running");
  const done = await eventually(
    async () => {
      const res = await admin(gw, "GET", `/v1/replays/${record.id}`);
      return res.json.state === "done" ? res.json : undefined;
    },
    15_000,
    "the replay with a lost job to be resumed and finish",
  );
  expect(done.state).toBe("done");
});

// /openapi.json must describe what the admin API actually answers: every field the views produce is
// declared in its schema.
import { describe, expect, it } from "vitest";
import { openApiSchemas } from "../../src/api/openapi-schemas.ts";
import { dlqEntryView } from "../../src/api/routes/dlq.ts";
import { sinkStateView } from "../../src/api/routes/hooks.ts";
import { replayView } from "../../src/api/routes/replays.ts";
import type { ReplayRecord } from "../../src/recovery/replay-store.ts";

const declared = (schema: { properties: object }) => Object.keys(schema.properties).sort();

describe("OpenAPI schemas", () => {
  it("declare every field of a sink state view", () => {
    const view = sinkStateView("hk_00000000000000000000000000", "out", {
      state: "dead",
      attempts: 3,
      first_attempt_at: 1,
      last_attempt_at: 2,
      next_attempt_at: 3,
      delivered_at: 4,
      last_error: "x",
      error_class: "transient",
      replay_id: "rp_x",
    });
    expect(declared(openApiSchemas.SinkState)).toEqual(expect.arrayContaining(Object.keys(view)));
  });

  it("declare every field of a DLQ entry view", () => {
    const view = dlqEntryView({
      id: "hk_x-out",
      hook_id: "hk_x",
      source: "s",
      tenant: "t",
      sink: "out",
      error_class: "permanent",
      reason: "r",
      attempts: 1,
      first_attempt_at: 1,
      last_attempt_at: 2,
      dead_at: 3,
      replay_id: "rp_x",
    });
    expect(declared(openApiSchemas.DlqEntry)).toEqual(expect.arrayContaining(Object.keys(view)));
  });

  it("declare every field of a replay view", () => {
    const record = {
      id: "rp_x",
      state: "running",
      tenant: undefined,
      filter: {},
      rate_per_s: 10,
      created_at: 1,
      updated_at: 2,
      finished_at: undefined,
      matched: 0,
      moved: 0,
      failed: 0,
      total_estimate: 0,
      index: undefined,
      targets: undefined,
      cursor: null,
      inflight: undefined,
    } as unknown as ReplayRecord;
    expect(declared(openApiSchemas.Replay)).toEqual(expect.arrayContaining(Object.keys(replayView(record))));
  });
});

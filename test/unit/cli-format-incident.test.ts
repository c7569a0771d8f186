// What the incident commands print: replays, endpoints and breakers as aligned tables.
import { describe, expect, it } from "vitest";
import {
  type BreakersJson,
  breakersText,
  endpointTable,
  filterText,
  replayLine,
  replayTable,
} from "../../src/cli/format-incident.ts";

const replay = {
  id: "rp_01",
  state: "paused",
  tenant: "acme",
  filter: { source: "github", since: "2030-01-01T00:00:00.000Z", until: null, ids: ["a", "b"] },
  rate_per_s: 100,
  matched: 40,
  moved: 30,
  failed: 2,
  total_estimate: 50,
  created_at: "2030-01-02T00:00:00.000Z",
};

describe("incident formatting", () => {
  it("shows replays one a line, the filter compact, and says when none match", () => {
    const lines = replayTable([replay, { ...replay, id: "rp_02", tenant: undefined, filter: {} }]).split(
      "\n",
    );
    expect(lines[0]).toMatch(/^CREATED\s+ID\s+STATE\s+MOVED\s+FAILED\s+RATE\/S\s+TENANT\s+FILTER$/);
    expect(lines[1]).toMatch(
      /rp_01\s+paused\s+30\/40\s+2\s+100\s+acme\s+source=github since=2030-01-01T00:00:00.000Z ids=\[2\]$/,
    );
    expect(lines[2]).toMatch(/rp_02 .*\s-\s+\(everything\)$/);
    expect(replayTable([])).toBe("no replays match");
    expect(filterText({ sink: "out" })).toBe("sink=out");
    expect(replayLine(replay)).toBe("replay rp_01 paused: moved 30, failed 2 of 40 matched so far");
  });

  it("shows endpoints with their state: enabled, failing, disabled with the reason", () => {
    const base = {
      url: "https://e.example/hook",
      event_types: ["order.*", "refund.created"],
      created_at: "x",
    };
    const text = endpointTable([
      { ...base, id: "ep_1", tenant: "acme", disabled: false },
      { ...base, id: "ep_2", disabled: false, failing_since: "2030-01-01T00:00:00.000Z" },
      { ...base, id: "ep_3", disabled: true, disabled_reason: "answered 410" },
    ]);
    const lines = text.split("\n");
    expect(lines[0]).toMatch(/^ID\s+TENANT\s+URL\s+EVENT TYPES\s+STATE$/);
    expect(lines[1]).toMatch(
      /^ep_1\s+acme\s+https:\/\/e\.example\/hook\s+order\.\*,refund\.created\s+enabled$/,
    );
    expect(lines[2]).toMatch(/^ep_2\s+-\s.*failing since 2030-01-01T00:00:00.000Z$/);
    expect(lines[3]).toMatch(/disabled \(answered 410\)$/);
    expect(endpointTable([])).toBe("no endpoints");
  });

  it("shows each sink's shared breaker, then the tripped endpoints", () => {
    const b: BreakersJson = {
      sinks: [
        {
          sink: "forward",
          state: "open",
          open_until: "2030-01-01T00:01:00.000Z",
          probe_until: null,
        },
        {
          sink: "bus",
          state: "half_open",
          open_until: "2030-01-01T00:00:00.000Z",
          probe_until: "2030-01-01T00:00:30.000Z",
        },
      ],
      endpoints: [
        {
          endpoint: "ep_9",
          tenant: null,
          url: "https://down.example/",
          state: "half_open",
          open_until: null,
        },
      ],
      endpoints_checked: 12,
      endpoints_truncated: false,
    };
    const [sinks, endpoints] = breakersText(b).split("\n\n");
    expect(sinks?.split("\n")).toEqual([
      expect.stringMatching(/^SINK\s+STATE\s+OPEN UNTIL\s+PROBE UNTIL$/),
      expect.stringMatching(/^forward\s+open\s+2030-01-01T00:01:00.000Z\s+-$/),
      expect.stringMatching(/^bus\s+half_open\s+2030-01-01T00:00:00.000Z\s+2030-01-01T00:00:30.000Z$/),
    ]);
    expect(endpoints).toMatch(
      /^ENDPOINT\s+TENANT\s+STATE\s+OPEN UNTIL\s+URL\nep_9\s+-\s+half_open\s+-\s+https:\/\/down\.example\/\n\(12 endpoints checked\)$/,
    );
    expect(
      breakersText({ ...b, sinks: [], endpoints: [], endpoints_checked: 1, endpoints_truncated: true }),
    ).toBe("no endpoint breaker is open (1 endpoint checked, more not checked)");
  });
});

import { describe, expect, it } from "vitest";
import { idTime, isId, newId } from "../../src/domain/ids.ts";
import { deliveryJobId, parseDeliveryJobId } from "../../src/queue/delivery-job.ts";
import { renderTemplate } from "../../src/sinks/template.ts";

describe("ids", () => {
  it("are prefixed, well-formed and carry their creation time", () => {
    const id = newId("hk", 1_764_547_200_123);
    expect(isId("hk", id)).toBe(true);
    expect(isId("rp", id)).toBe(false);
    expect(idTime(id)).toBe(1_764_547_200_123);
  });

  it("sort by time", () => {
    const a = newId("hk", 1000);
    const b = newId("hk", 2000);
    expect(a < b).toBe(true);
  });

  it("reject junk", () => {
    for (const junk of ["hk_", "hk_../../etc", "hk_" + "z".repeat(27), "HK_" + "0".repeat(26)])
      expect(isId("hk", junk)).toBe(false);
  });
});

describe("delivery job ids", () => {
  it("round-trip hook id and sink and contain no colon", () => {
    const hookId = newId("hk");
    const jobId = deliveryJobId(hookId, "my-sink_2");
    expect(jobId).not.toContain(":");
    expect(parseDeliveryJobId(jobId)).toEqual({ hookId, sink: "my-sink_2" });
    expect(parseDeliveryJobId("repeat:abc")).toBeUndefined();
  });
});

describe("templates", () => {
  it("fill source, tenant and id; a missing tenant renders as -", () => {
    expect(renderTemplate("{source}.{tenant}.{id}", { source: "s", tenant: "t", id: "hk_1" })).toBe(
      "s.t.hk_1",
    );
    expect(renderTemplate("{tenant}/{source}", { source: "s", tenant: undefined, id: "hk_x" })).toBe("-/s");
  });
});

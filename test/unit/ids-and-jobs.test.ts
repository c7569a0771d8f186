import { describe, expect, it } from "vitest";
import { parseDlqId } from "../../src/domain/dlq.ts";
import { sinkDeliveryId } from "../../src/domain/hook.ts";
import { BUCKETS, bucketFor, bucketOf, deliveryIdFor, idTime, isId, newId } from "../../src/domain/ids.ts";
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

describe("buckets", () => {
  it("an id made for a bucket says which, and identities always land in the same one", () => {
    for (let b = 0; b < BUCKETS; b++) {
      const id = newId("hk", Date.now(), b);
      expect(isId("hk", id)).toBe(true);
      expect(bucketOf(id)).toBe(b);
    }
    expect(bucketFor("acme:stripe:evt_1")).toBe(bucketFor("acme:stripe:evt_1"));
    const spread = new Set(Array.from({ length: 200 }, (_, i) => bucketFor(`-:src:${i}`)));
    expect(spread.size).toBe(BUCKETS);
  });
});

describe("delivery ids", () => {
  it("are deterministic per (parent, target), in the parent's bucket, with no colon", () => {
    const hookId = newId("hk", Date.now(), 7);
    const id = sinkDeliveryId(hookId, "my-sink_2");
    expect(isId("dl", id)).toBe(true);
    expect(id).not.toContain(":");
    expect(sinkDeliveryId(hookId, "my-sink_2")).toBe(id);
    expect(sinkDeliveryId(hookId, "other")).not.toBe(id);
    expect(bucketOf(id)).toBe(7);
    expect(deliveryIdFor("order-1", "e:ep_x", 3)).toBe(deliveryIdFor("order-1", "e:ep_x", 3));
  });

  it("never change for the same (parent, target): rows and jobs written before an upgrade keep their ids", () => {
    // Pinned values: a change in how the id is derived would orphan every live row and job.
    expect(deliveryIdFor("hk_01JF3ZQ8X2M4N6P8R0T2V4X6Z8a", "s:out", 3)).toBe("dl_t1yaj1t8cmmd5afsy5mwk7sdd3");
    expect(deliveryIdFor("ev_é-ünïcode", "e:ep_1", 0)).toBe("dl_msvf8eyac6n5xazrbyz5bqxss0");
  });

  it("a DLQ id is a delivery id or the <hook id>-<sink> form", () => {
    const hookId = newId("hk");
    const id = sinkDeliveryId(hookId, "out");
    expect(parseDlqId(id)).toBe(id);
    expect(parseDlqId(`${hookId}-out`)).toBe(id);
    expect(parseDlqId("repeat:abc")).toBeUndefined();
    expect(parseDlqId(`${hookId}-a:b`)).toBeUndefined();
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

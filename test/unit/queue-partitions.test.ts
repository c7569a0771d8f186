// A sink's jobs spread over its queue partitions by delivery id: the same id always lands in the same
// queue, the queues share the load, and a one-partition sink keeps its plain queue name.
import { describe, expect, it } from "vitest";
import { sinkDeliveryId } from "../../src/domain/hook.ts";
import { newId } from "../../src/domain/ids.ts";
import {
  deliveryQueueNames,
  partitionOf,
  queueNameOf,
  sinkQueueName,
  sinkQueueNames,
} from "../../src/queue/delivery-job.ts";

describe("queue partitions", () => {
  it("names the first partition like an unpartitioned sink's queue", () => {
    expect(sinkQueueName("out")).toBe("sink-out");
    expect(sinkQueueNames("out", 3)).toEqual(["sink-out", "sink-out.1", "sink-out.2"]);
    expect(deliveryQueueNames({ a: 2, b: 1 })).toEqual(["sink-a", "sink-a.1", "sink-b", "outbound"]);
  });

  it("assigns a delivery to one partition, the same every time, and spreads deliveries evenly", () => {
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 4000; i++) {
      const id = sinkDeliveryId(newId("hk", Date.now(), i % 16), "out");
      const p = partitionOf(id, 4);
      expect(partitionOf(id, 4)).toBe(p);
      expect(queueNameOf({ kind: "sink", name: "out" }, id, { out: 4 })).toBe(sinkQueueName("out", p));
      counts[p] = (counts[p] ?? 0) + 1;
    }
    for (const n of counts) expect(n).toBeGreaterThan(800);
    expect(partitionOf(sinkDeliveryId(newId("hk"), "out"), 1)).toBe(0);
  });

  it("sends every outbound delivery to the one outbound queue", () => {
    const id = sinkDeliveryId(newId("hk"), "x");
    expect(queueNameOf({ kind: "endpoint", id: "ep_x" }, id, { x: 4 })).toBe("outbound");
  });
});

// On a Redis Cluster the delivery queues are aligned with the storage buckets by default: a row's job
// goes to its bucket's queue, whose keys carry the bucket's hash tag, so the script creating the row can
// write its job too (one slot). One Redis, or `redis.cluster.queues: partition`, keeps the partitions.
import { describe, expect, it } from "vitest";
import { sinkDeliveryId } from "../../src/domain/hook.ts";
import { bucketOf, newId } from "../../src/domain/ids.ts";
import { keySlot } from "../../src/store/key-slot.ts";
import { Keys } from "../../src/store/keys.ts";
import { QueuePlan } from "../../src/queue/queue-plan.ts";
import { configSchema } from "../../src/config/schema.ts";

const sinks = { out: { partitions: 4 }, audit: {} };
const cluster = (queues?: "bucket" | "partition") => ({
  redis: { cluster: { nodes: ["redis://127.0.0.1:7000"], ...(queues ? { queues } : {}) } },
  sinks,
});

describe("queue plan", () => {
  it("keeps a sink's partitions on one Redis and on a cluster that asks for them", () => {
    for (const plan of [QueuePlan.of({ redis: {}, sinks }), QueuePlan.of(cluster("partition"))]) {
      expect(plan.byBucket).toBe(false);
      expect(plan.all()).toEqual([
        "sink-out",
        "sink-out.1",
        "sink-out.2",
        "sink-out.3",
        "sink-audit",
        "outbound",
      ]);
    }
  });

  it("gives every sink and the outbound direction one queue per bucket on a cluster by default", () => {
    const plan = QueuePlan.of(cluster());
    expect(plan.byBucket).toBe(true);
    expect(plan.sinkQueues("out")).toHaveLength(16);
    expect(plan.sinkQueues("out")[3]).toBe("sink-out.b3");
    expect(plan.outboundQueues()[15]).toBe("outbound.b15");
    expect(plan.all()).toHaveLength(48);
    expect(plan.other().all()).toEqual(QueuePlan.of(cluster("partition")).all());
  });

  it("puts a row's job in its bucket's queue, in the slot of the row", () => {
    const plan = QueuePlan.of(cluster());
    const keys = new Keys("sy");
    for (let i = 0; i < 64; i++) {
      const id = sinkDeliveryId(newId("hk", Date.now(), i % 16), "out");
      const queue = plan.queueOf({ kind: "sink", name: "out" }, id);
      expect(queue).toBe(`sink-out.b${bucketOf(id)}`);
      expect(keySlot(`${keys.queuePrefix(queue)}:${queue}:${id}`)).toBe(keySlot(keys.delivery(id)));
      const outbound = plan.queueOf({ kind: "endpoint", id: "ep_x" }, id);
      expect(keySlot(`${keys.queuePrefix(outbound)}:${outbound}:wait`)).toBe(keySlot(keys.delivery(id)));
    }
  });

  it("leaves other queues in their own hash tag", () => {
    const keys = new Keys("sy");
    expect(keys.queuePrefix("sink-out.3")).toBe("{sy:sink-out.3}");
    expect(keys.queuePrefix("replays")).toBe("{sy:replays}");
    expect(keys.queuePrefix("sink-out.b7")).toBe("{sy:7}");
  });

  it("refuses an unknown queue layout with a clear error", () => {
    const parsed = configSchema().safeParse({
      redis: { cluster: { nodes: ["redis://127.0.0.1:7000"], queues: "shard" } },
      sinks: {},
      sources: {},
    });
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toContain("queues");
  });
});

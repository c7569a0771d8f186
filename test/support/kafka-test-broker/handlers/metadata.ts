// Metadata (key 3), v4 only: v4 is the first version with allow_auto_topic_creation, which the sink sets
// to false. Every partition is led by this one broker, which is also the controller (kafkajs asks the
// controller for an idempotent producer id). An unknown topic answers UNKNOWN_TOPIC_OR_PARTITION (3).
import { UNKNOWN_TOPIC_OR_PARTITION } from "../state.ts";
import { Writer, type Reader } from "../wire.ts";
import type { ApiSpec, RequestContext } from "./types.ts";

export const metadataApi: ApiSpec = { key: 3, name: "Metadata", minVersion: 4, maxVersion: 4, handle };

function handle(req: Reader, { state, host, port }: RequestContext) {
  const requested = req.array((r) => r.string());
  const allowAutoCreate = req.boolean();
  const fault = state.takeFault("Metadata");
  const topics = requested ?? state.topicNames(); // null means "all topics"
  if (allowAutoCreate && state.autoCreateTopics) for (const t of topics) state.createTopic(t);

  const w = new Writer().int32(fault?.throttleTimeMs ?? 0);
  w.array([state.nodeId], (b, id) => b.int32(id).string(host).int32(port).nullableString(null));
  w.nullableString("switchyard-test-cluster").int32(state.nodeId);
  w.array(topics, (t, name) => {
    const errorCode = fault?.errorCode || (state.hasTopic(name) ? 0 : UNKNOWN_TOPIC_OR_PARTITION);
    t.int16(errorCode).string(name).boolean(false);
    const partitions = errorCode === 0 ? Array.from({ length: state.partitions }, (_, i) => i) : [];
    t.array(partitions, (p, index) => {
      p.int16(0).int32(index).int32(state.nodeId);
      p.array([state.nodeId], (x, id) => x.int32(id)); // replicas
      p.array([state.nodeId], (x, id) => x.int32(id)); // isr
    });
  });
  return { body: w.toBuffer(), delayMs: fault?.delayMs ?? 0 };
}

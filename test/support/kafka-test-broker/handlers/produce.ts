// Produce (key 0), v3–v7: v3 is the first version that carries magic-v2 record batches, v5 adds
// log_start_offset to the answer, v7 is the newest kafkajs 2.2.4 knows. An injected fault answers its
// error code for every partition of the request and stores nothing; an injected fault with error code 0
// stores the records and only adds its throttle time or delay.
import { Writer, type Reader } from "../wire.ts";
import type { ApiSpec, RequestContext } from "./types.ts";

export const produceApi: ApiSpec = { key: 0, name: "Produce", minVersion: 3, maxVersion: 7, handle };

interface PartitionAnswer {
  readonly index: number;
  readonly errorCode: number;
  readonly baseOffset: bigint;
}

function handle(req: Reader, { state, version }: RequestContext) {
  req.nullableString(); // transactional id
  const acks = req.int16();
  req.int32(); // timeout: this broker acknowledges at once
  const topics = req.array((t) => ({
    name: t.string(),
    partitions: t.array((p) => ({ index: p.int32(), records: p.bytes() ?? Buffer.alloc(0) })) ?? [],
  }));
  state.produceRequests++;
  const fault = state.takeFault("Produce");

  const answers = (topics ?? []).map(({ name, partitions }) => ({
    name,
    partitions: partitions.map(({ index, records }): PartitionAnswer => {
      if (fault && fault.errorCode !== 0) return { index, errorCode: fault.errorCode, baseOffset: -1n };
      return { index, ...state.append(name, index, records) };
    }),
  }));
  if (acks === 0) return { body: undefined, delayMs: 0 };

  const w = new Writer();
  w.array(answers, (t, topic) => {
    t.string(topic.name);
    t.array(topic.partitions, (p, a) => {
      p.int32(a.index).int16(a.errorCode).int64(a.baseOffset).int64(-1n); // log_append_time: none
      if (version >= 5) p.int64(0n); // log_start_offset
    });
  });
  w.int32(fault?.throttleTimeMs ?? 0);
  return { body: w.toBuffer(), delayMs: fault?.delayMs ?? 0 };
}

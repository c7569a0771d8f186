// InitProducerId (key 22), v0–v1 (same layout): an idempotent kafkajs producer asks for a producer id
// before its first Produce. Every call gets a fresh id, epoch 0.
import { Writer, type Reader } from "../wire.ts";
import type { ApiSpec, RequestContext } from "./types.ts";

export const initProducerIdApi: ApiSpec = {
  key: 22,
  name: "InitProducerId",
  minVersion: 0,
  maxVersion: 1,
  handle,
};

function handle(req: Reader, { state }: RequestContext) {
  req.nullableString(); // transactional id: null for an idempotent, non-transactional producer
  req.int32(); // transaction timeout
  const fault = state.takeFault("InitProducerId");
  const errorCode = fault?.errorCode ?? 0;
  const w = new Writer().int32(fault?.throttleTimeMs ?? 0).int16(errorCode);
  w.int64(errorCode === 0 ? state.newProducerId() : -1n).int16(errorCode === 0 ? 0 : -1);
  return { body: w.toBuffer(), delayMs: fault?.delayMs ?? 0 };
}

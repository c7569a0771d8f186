// Decoding of magic-v2 record batches, the `records` bytes of a Produce request, for the TEST broker:
// enough to hand each record's key, value and headers to a test. CRC-32C is checked; only uncompressed
// and gzip batches are understood (the Switchyard sink sends uncompressed ones).
import { gunzipSync } from "node:zlib";
import { crc32c } from "./crc32c.ts";
import { Reader } from "./wire.ts";

/** A Kafka error code raised while decoding; the produce handler answers it for that partition. */
export class BatchError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const CORRUPT_MESSAGE = 2;
const UNSUPPORTED_COMPRESSION_TYPE = 76;

export interface DecodedRecord {
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  readonly headers: Record<string, Buffer>;
  readonly timestamp: bigint;
}

export interface DecodedBatch {
  readonly producerId: bigint;
  readonly producerEpoch: number;
  readonly baseSequence: number;
  readonly records: DecodedRecord[];
}

/** Every batch in a partition's `records` bytes, in order. */
export function decodeRecordBatches(records: Buffer): DecodedBatch[] {
  const r = new Reader(records);
  const out: DecodedBatch[] = [];
  try {
    while (r.remaining() > 0) {
      r.int64(); // base offset: the producer's placeholder, the broker assigns the real one
      const length = r.int32();
      out.push(decodeBatch(r.take(length)));
    }
  } catch (err) {
    if (err instanceof BatchError) throw err;
    throw new BatchError(CORRUPT_MESSAGE, `undecodable record batch: ${(err as Error).message}`);
  }
  return out;
}

function decodeBatch(body: Buffer): DecodedBatch {
  const r = new Reader(body);
  r.int32(); // partition leader epoch
  const magic = r.int8();
  if (magic !== 2) throw new BatchError(CORRUPT_MESSAGE, `magic ${magic} is not 2`);
  const crc = r.uint32();
  if (crc32c(body.subarray(9)) !== crc) throw new BatchError(CORRUPT_MESSAGE, "record batch CRC mismatch");
  const attributes = r.int16();
  r.int32(); // last offset delta
  const firstTimestamp = r.int64();
  r.int64(); // max timestamp
  const producerId = r.int64();
  const producerEpoch = r.int16();
  const baseSequence = r.int32();
  const count = r.int32();
  const payload = decompress(attributes & 0x07, r.take(r.remaining()));
  const rr = new Reader(payload);
  const records: DecodedRecord[] = [];
  for (let i = 0; i < count; i++)
    records.push(decodeRecord(new Reader(rr.take(rr.varint())), firstTimestamp));
  return { producerId, producerEpoch, baseSequence, records };
}

function decompress(codec: number, data: Buffer): Buffer {
  switch (codec) {
    case 0:
      return data;
    case 1:
      return gunzipSync(data);
    default:
      throw new BatchError(UNSUPPORTED_COMPRESSION_TYPE, `compression codec ${codec} not supported`);
  }
}

function decodeRecord(r: Reader, firstTimestamp: bigint): DecodedRecord {
  r.int8(); // record attributes (unused)
  const timestamp = firstTimestamp + r.varlong();
  r.varint(); // offset delta: records arrive in order
  const key = r.varBytes();
  const value = r.varBytes();
  const headers: Record<string, Buffer> = {};
  const n = r.varint();
  for (let i = 0; i < n; i++) {
    const name = (r.varBytes() ?? Buffer.alloc(0)).toString("utf8");
    headers[name] = r.varBytes() ?? Buffer.alloc(0);
  }
  return { key, value, headers, timestamp };
}

// The Kafka test peer's own building blocks: CRC-32C, framing, varints, and record-batch decoding of
// batches encoded by kafkajs's own encoder (so the peer and the client agree on the bytes).
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { crc32c } from "../support/kafka-test-broker/crc32c.ts";
import { FrameReader, responseFrame } from "../support/kafka-test-broker/framing.ts";
import { BatchError, decodeRecordBatches } from "../support/kafka-test-broker/record-batch.ts";
import { Reader } from "../support/kafka-test-broker/wire.ts";

const require = createRequire(import.meta.url);
const { RecordBatch } = require("kafkajs/src/protocol/recordBatch/v0");
const Record = require("kafkajs/src/protocol/recordBatch/record/v0");
const { Types: Compression } = require("kafkajs/src/protocol/message/compression");

async function kafkajsBatch(compression: number, records: any[]): Promise<Buffer> {
  const batch = await RecordBatch({
    compression,
    records: records.map((r, i) => Record({ ...r, offsetDelta: i })),
    lastOffsetDelta: records.length - 1,
    producerId: 1000,
    producerEpoch: 0,
    firstSequence: 7,
  });
  return batch.buffer;
}

describe("crc32c", () => {
  it("matches the standard check value", () => {
    expect(crc32c(Buffer.from("123456789"))).toBe(0xe3069283);
  });
});

describe("FrameReader", () => {
  it("reassembles frames split across chunks and splits coalesced ones", () => {
    const a = responseFrame(1, Buffer.from("hello"));
    const b = responseFrame(2, Buffer.from("world!"));
    const both = Buffer.concat([a, b]);
    const fr = new FrameReader();
    expect(fr.push(both.subarray(0, 3))).toEqual([]);
    const frames = fr.push(both.subarray(3));
    expect(frames.map((f) => [f.readInt32BE(0), f.subarray(4).toString()])).toEqual([
      [1, "hello"],
      [2, "world!"],
    ]);
  });

  it("refuses a negative frame size", () => {
    const bad = Buffer.alloc(4);
    bad.writeInt32BE(-5);
    expect(() => new FrameReader().push(bad)).toThrow();
  });
});

describe("Reader varints", () => {
  it("decodes zig-zag varints, including -1 and multi-byte values", () => {
    const r = new Reader(Buffer.from([0x01, 0x02, 0xac, 0x02, 0x00]));
    expect([r.varint(), r.varint(), r.varint(), r.varint()]).toEqual([-1, 1, 150, 0]);
  });

  it("throws on a truncated buffer instead of reading past it", () => {
    expect(() => new Reader(Buffer.from([0x00, 0x01])).int32()).toThrow();
  });
});

describe("decodeRecordBatches", () => {
  const records = [
    { key: Buffer.from("k1"), value: Buffer.from([0, 255, 1]), headers: { a: Buffer.from("x"), b: "y" } },
    { key: null, value: Buffer.from("v2"), headers: {} },
    { key: Buffer.from("k3"), value: null },
  ];

  for (const [name, codec] of [
    ["uncompressed", Compression.None],
    ["gzip", Compression.GZIP],
  ] as const) {
    it(`decodes a ${name} batch that kafkajs encoded`, async () => {
      const [batch, ...rest] = decodeRecordBatches(await kafkajsBatch(codec, records));
      expect(rest).toEqual([]);
      expect(batch?.producerId).toBe(1000n);
      expect(batch?.baseSequence).toBe(7);
      const recs = batch!.records;
      expect(recs.map((r) => r.key?.toString() ?? null)).toEqual(["k1", null, "k3"]);
      expect(recs[0]?.value).toEqual(Buffer.from([0, 255, 1]));
      expect(recs[2]?.value).toBeNull();
      expect(Object.fromEntries(Object.entries(recs[0]!.headers).map(([k, v]) => [k, v.toString()]))).toEqual(
        {
          a: "x",
          b: "y",
        },
      );
    });
  }

  it("decodes two batches back to back", async () => {
    const two = Buffer.concat([await kafkajsBatch(0, [records[0]]), await kafkajsBatch(0, [records[1]])]);
    expect(decodeRecordBatches(two).map((b) => b.records.length)).toEqual([1, 1]);
  });

  it("answers CORRUPT_MESSAGE for a flipped byte (CRC) and for a truncated batch", async () => {
    const good = await kafkajsBatch(0, records);
    const flipped = Buffer.from(good);
    flipped[flipped.length - 2] = (flipped[flipped.length - 2] ?? 0) ^ 0xff;
    for (const bad of [flipped, good.subarray(0, good.length - 3)]) {
      let code: number | undefined;
      try {
        decodeRecordBatches(bad);
      } catch (err) {
        code = err instanceof BatchError ? err.code : undefined;
      }
      expect(code).toBe(2);
    }
  });
});

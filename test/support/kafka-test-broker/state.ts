// What the TEST broker remembers: its topics and their partition logs, the faults a test has queued,
// and counters a test asserts on. Handlers read and change it; nothing here touches a socket.
import { BatchError, decodeRecordBatches, type DecodedBatch, type DecodedRecord } from "./record-batch.ts";

export const UNKNOWN_TOPIC_OR_PARTITION = 3;
export const OUT_OF_ORDER_SEQUENCE_NUMBER = 45;
export const MESSAGE_TOO_LARGE = 10;

/** One record as stored, with the offset the broker gave it. */
export interface StoredRecord {
  readonly partition: number;
  readonly offset: number;
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  readonly headers: Record<string, Buffer>;
}

/** The APIs a fault can be queued on. */
export type FaultApi = "Produce" | "Metadata" | "InitProducerId";

export interface FaultOptions {
  /** How many consecutive requests of that API get the fault (default 1). */
  readonly times?: number;
  /** `throttle_time_ms` to put in the response. */
  readonly throttleTimeMs?: number;
  /** Hold the response this long before writing it. */
  readonly delayMs?: number;
}

export interface Fault {
  readonly errorCode: number;
  readonly throttleTimeMs: number;
  readonly delayMs: number;
}

export class BrokerState {
  readonly nodeId = 1;
  private readonly logs = new Map<string, StoredRecord[][]>();
  private readonly faults = new Map<FaultApi, Fault[]>();
  /** Next expected sequence per `topic/partition/producerId`, as Kafka tracks idempotent producers. */
  private readonly sequences = new Map<string, number>();
  private nextProducerId = 1000n;
  produceRequests = 0;
  readonly recordSetBytes: number[] = [];

  constructor(
    topics: readonly string[],
    readonly partitions: number,
    readonly autoCreateTopics: boolean,
    /** Kafka's message.max.bytes: a larger record set is refused whole. */
    readonly maxMessageBytes: number | undefined,
  ) {
    for (const t of topics) this.createTopic(t);
  }

  createTopic(topic: string): void {
    if (!this.logs.has(topic))
      this.logs.set(
        topic,
        Array.from({ length: this.partitions }, () => []),
      );
  }

  hasTopic(topic: string): boolean {
    return this.logs.has(topic);
  }

  topicNames(): string[] {
    return [...this.logs.keys()];
  }

  queueFault(api: FaultApi, errorCode: number, opts: FaultOptions): void {
    const list = this.faults.get(api) ?? [];
    const fault = { errorCode, throttleTimeMs: opts.throttleTimeMs ?? 0, delayMs: opts.delayMs ?? 0 };
    for (let i = 0; i < (opts.times ?? 1); i++) list.push(fault);
    this.faults.set(api, list);
  }

  /** The fault for the next request of `api`, if one is queued; consumes it. */
  takeFault(api: FaultApi): Fault | undefined {
    return this.faults.get(api)?.shift();
  }

  newProducerId(): bigint {
    return this.nextProducerId++;
  }

  /** Forget every producer's sequence state, as a broker does when producer ids expire. */
  forgetProducers(): void {
    this.sequences.clear();
  }

  /**
   * Append a partition's record batches; answers the Kafka error code and the first offset given.
   * Idempotent batches are checked like Kafka does: a sequence already seen is acknowledged without
   * being stored again; a gap, or a producer the broker does not know starting above 0, is
   * OUT_OF_ORDER_SEQUENCE_NUMBER (45).
   */
  append(topic: string, partition: number, records: Buffer): { errorCode: number; baseOffset: bigint } {
    const log = this.logs.get(topic)?.[partition];
    if (!log) return { errorCode: UNKNOWN_TOPIC_OR_PARTITION, baseOffset: -1n };
    this.recordSetBytes.push(records.length);
    if (this.maxMessageBytes !== undefined && records.length > this.maxMessageBytes) {
      return { errorCode: MESSAGE_TOO_LARGE, baseOffset: -1n };
    }
    try {
      const batches = decodeRecordBatches(records);
      const baseOffset = BigInt(log.length);
      for (const batch of batches) {
        const check = this.checkSequence(`${topic}/${partition}/${batch.producerId}`, batch);
        if (check === "duplicate") continue;
        if (check === "out_of_order") return { errorCode: OUT_OF_ORDER_SEQUENCE_NUMBER, baseOffset: -1n };
        for (const rec of batch.records) {
          log.push({ partition, offset: log.length, ...copyOf(rec) });
        }
      }
      return { errorCode: 0, baseOffset };
    } catch (err) {
      if (err instanceof BatchError) return { errorCode: err.code, baseOffset: -1n };
      throw err;
    }
  }

  private checkSequence(key: string, batch: DecodedBatch): "append" | "duplicate" | "out_of_order" {
    if (batch.producerId < 0n) return "append"; // not an idempotent producer
    const expected = this.sequences.get(key) ?? 0;
    if (batch.baseSequence < expected) return "duplicate";
    if (batch.baseSequence > expected) return "out_of_order";
    this.sequences.set(key, expected + batch.records.length);
    return "append";
  }

  /** Every record of `topic`, partition by partition, in offset order. */
  records(topic: string): StoredRecord[] {
    return (this.logs.get(topic) ?? []).flat();
  }
}

/** Decoded fields are views into the request frame; a stored record must not share its memory. */
function copyOf(rec: DecodedRecord): Pick<StoredRecord, "key" | "value" | "headers"> {
  const headers: Record<string, Buffer> = {};
  for (const [k, v] of Object.entries(rec.headers)) headers[k] = Buffer.from(v);
  return {
    key: rec.key === null ? null : Buffer.from(rec.key),
    value: rec.value === null ? null : Buffer.from(rec.value),
    headers,
  };
}

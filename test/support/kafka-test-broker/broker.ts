// KafkaTestBroker — a TEST PEER, not a Kafka broker. Never use it outside tests.
//
// No real Kafka runs on the test machines, so this speaks just enough of the Kafka wire protocol on
// 127.0.0.1 for a kafkajs 2.2.4 idempotent producer: ApiVersions (v0–2), Metadata (v4), InitProducerId
// (v0–1) and Produce (v3–7, magic-v2 record batches, CRC-32C checked). One node (id 1) leads every
// partition and is the controller. Idempotent producers' sequence numbers are checked per partition
// (duplicates acknowledged, gaps answered OUT_OF_ORDER_SEQUENCE_NUMBER). No replication, no fetch, no
// consumer groups, no SASL, no TLS, no persistence. Any other API or version closes the connection.
//
//   const broker = await KafkaTestBroker.start({ topics: ["hooks"], partitions: 1 });
//   broker.address                      // "127.0.0.1:<ephemeral port>" for kafkajs `brokers`
//   broker.records("hooks")             // [{ partition, offset, key, value, headers }] as produced
//   broker.failNext("Produce", 10)      // the next Produce answers MESSAGE_TOO_LARGE, stores nothing
//   broker.failNext("Produce", 0, { throttleTimeMs: 200 })  // stores, but answers a throttle time
//   broker.failNext("Produce", 0, { delayMs: 2000 })        // stores, answers late
//   broker.produceRequests              // how many Produce requests arrived
//   broker.recordSetBytes               // the size of every partition's record set produced, in order
//   broker.forgetProducers()            // drop producer sequence state, as after producer-id expiry
//   await broker.stop()                 // closes the port and every client connection
//
// `autoCreateTopics: true` creates an unknown topic when a Metadata request allows auto-creation, as a
// default Kafka broker would; without it unknown topics answer UNKNOWN_TOPIC_OR_PARTITION (3).
// `maxMessageBytes` is Kafka's message.max.bytes: a partition's record set above it answers
// MESSAGE_TOO_LARGE (10) and stores nothing (Kafka's default is 1048588).
import { createServer, type AddressInfo, type Server, type Socket } from "node:net";
import { FrameReader, responseFrame } from "./framing.ts";
import { apiVersionsRange, apiVersionsResponse } from "./handlers/api-versions.ts";
import { initProducerIdApi } from "./handlers/init-producer-id.ts";
import { metadataApi } from "./handlers/metadata.ts";
import { produceApi } from "./handlers/produce.ts";
import type { ApiRange, ApiSpec, HandlerResult } from "./handlers/types.ts";
import { BrokerState, type FaultApi, type FaultOptions, type StoredRecord } from "./state.ts";
import { MalformedRequest, Reader } from "./wire.ts";

export type { FaultApi, FaultOptions, StoredRecord } from "./state.ts";

const HOST = "127.0.0.1";
const APIS: readonly ApiSpec[] = [produceApi, metadataApi, initProducerIdApi];
const ADVERTISED: readonly ApiRange[] = [...APIS, apiVersionsRange];

export interface KafkaTestBrokerOptions {
  readonly topics: readonly string[];
  /** Partitions per topic (default 1). */
  readonly partitions?: number;
  /** Listen on this port instead of an ephemeral one (to "restart" a broker a client already knows). */
  readonly port?: number;
  readonly autoCreateTopics?: boolean;
  readonly maxMessageBytes?: number;
}

export class KafkaTestBroker {
  /** Every request received, in arrival order: API name and version (to check what kafkajs chose). */
  readonly requestLog: Array<{ readonly api: string; readonly version: number }> = [];
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private listenPort = 0;

  private constructor(
    private readonly server: Server,
    private readonly state: BrokerState,
  ) {}

  static async start(opts: KafkaTestBrokerOptions): Promise<KafkaTestBroker> {
    const state = new BrokerState(
      opts.topics,
      opts.partitions ?? 1,
      opts.autoCreateTopics ?? false,
      opts.maxMessageBytes,
    );
    const server = createServer();
    const broker = new KafkaTestBroker(server, state);
    server.on("connection", (socket) => broker.onConnection(socket));
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(opts.port ?? 0, HOST, () => resolve());
    });
    broker.listenPort = (server.address() as AddressInfo).port;
    return broker;
  }

  /** The port it listens (or, once stopped, listened) on. */
  get port(): number {
    return this.listenPort;
  }

  get address(): string {
    return `${HOST}:${this.port}`;
  }

  get produceRequests(): number {
    return this.state.produceRequests;
  }

  get recordSetBytes(): readonly number[] {
    return this.state.recordSetBytes;
  }

  /** The topics that exist now (auto-created ones included). */
  topics(): string[] {
    return this.state.topicNames();
  }

  /** Records produced to `topic`, partition by partition, in offset order. */
  records(topic: string): StoredRecord[] {
    return this.state.records(topic);
  }

  /**
   * Queue a fault for the next `times` requests of `api`: answer `errorCode` (e.g. 3 UNKNOWN_TOPIC_OR_PARTITION,
   * 10 MESSAGE_TOO_LARGE, 29 TOPIC_AUTHORIZATION_FAILED, 89 THROTTLING_QUOTA_EXCEEDED), or with 0 succeed
   * but add `throttleTimeMs` and/or `delayMs`.
   */
  failNext(api: FaultApi, errorCode: number, opts: FaultOptions = {}): void {
    this.state.queueFault(api, errorCode, opts);
  }

  /** Forget every idempotent producer's sequence state (as after producer-id expiry): their next batch is out of order. */
  forgetProducers(): void {
    this.state.forgetProducers();
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const s of this.sockets) s.destroy();
    await closed;
  }

  private onConnection(socket: Socket): void {
    this.sockets.add(socket);
    socket.on("close", () => this.sockets.delete(socket));
    socket.on("error", () => socket.destroy()); // clients reset connections; nothing to report
    socket.setNoDelay(true);
    const frames = new FrameReader();
    let tail = Promise.resolve();
    socket.on("data", (chunk: Buffer) => {
      try {
        for (const frame of frames.push(chunk)) {
          const out = this.handle(frame);
          if (!out) continue;
          tail = tail
            .then(() => this.sleep(out.delayMs))
            .then(() => {
              if (!socket.destroyed) socket.write(out.frame);
            });
        }
      } catch (err) {
        if (!(err instanceof MalformedRequest)) throw err;
        socket.destroy();
      }
    });
  }

  private handle(frame: Buffer): { frame: Buffer; delayMs: number } | undefined {
    const req = new Reader(frame);
    const apiKey = req.int16();
    const version = req.int16();
    const correlationId = req.int32();
    req.nullableString(); // client id
    const spec = APIS.find((a) => a.key === apiKey);
    this.requestLog.push({ api: ADVERTISED.find((a) => a.key === apiKey)?.name ?? `key ${apiKey}`, version });
    let result: HandlerResult;
    if (apiKey === apiVersionsRange.key) {
      result = apiVersionsResponse(ADVERTISED, version);
    } else if (spec && version >= spec.minVersion && version <= spec.maxVersion) {
      result = spec.handle(req, { version, state: this.state, host: HOST, port: this.port });
    } else {
      throw new MalformedRequest(`unsupported API ${apiKey} v${version}`);
    }
    return result.body && { frame: responseFrame(correlationId, result.body), delayMs: result.delayMs };
  }

  private sleep(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.timers.delete(t);
        resolve();
      }, ms);
      this.timers.add(t);
    });
  }
}

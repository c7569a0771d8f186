// One kafkajs producer per sink, connected on first use. A failed connect is forgotten so the next
// delivery tries again. A producer that lost its connection, or whose id and sequence numbers the broker
// no longer accepts, is dropped and replaced: kafkajs would otherwise keep sending with a sequence the
// broker rejects, and every later delivery would fail (kafkajs issue #598).
import type { Producer } from "kafkajs";

export class ProducerHandle {
  private entry: { readonly producer: Producer; readonly ready: Promise<void> } | undefined;
  private closed = false;

  constructor(private readonly create: () => Producer) {}

  /** The connected producer, connecting a new one if there is none. Rejects with the connect error. */
  async acquire(): Promise<Producer> {
    if (this.closed) throw new Error("kafka sink is closed");
    let entry = this.entry;
    if (!entry) {
      const producer = this.create();
      entry = { producer, ready: producer.connect() };
      this.entry = entry;
    }
    try {
      await entry.ready;
    } catch (err) {
      this.drop(entry.producer);
      throw err;
    }
    return entry.producer;
  }

  /** Forget `producer` (if it is still the current one) and disconnect it in the background. A new
   *  producer, with a new producer id, is connected on the next `acquire`. */
  drop(producer: Producer): void {
    if (this.entry?.producer !== producer) return;
    this.entry = undefined;
    producer.disconnect().catch(() => undefined);
  }

  /** Disconnect for good; later `acquire` calls reject. */
  async close(): Promise<void> {
    this.closed = true;
    const entry = this.entry;
    this.entry = undefined;
    if (!entry) return;
    await entry.ready.then(
      () => entry.producer.disconnect(),
      () => undefined,
    );
  }
}

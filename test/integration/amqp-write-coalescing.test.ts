// A burst of publishes leaves for the broker in a few socket writes, not one or two per publish: amqplib
// writes each frame chunk separately, and on a loaded worker those system calls were a third of its CPU.
// Against the real RabbitMQ, counting the writes its socket makes.
import net from "node:net";
import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { delivery, fixture, signal, sink, useCleanups } from "../support/amqp-sink-fixtures.ts";
import { uniqueName } from "../support/rabbit.ts";

useCleanups();

/** Counts the writes (write or writev) of sockets to the broker's port. */
function countBrokerWrites(port: number): { readonly count: () => number } {
  let writes = 0;
  const proto = net.Socket.prototype as unknown as {
    _writeGeneric: (this: net.Socket, ...args: unknown[]) => unknown;
  };
  const original = proto._writeGeneric;
  vi.spyOn(proto, "_writeGeneric").mockImplementation(function (this: net.Socket, ...args: unknown[]) {
    if (this.remotePort === port) writes++;
    return original.apply(this, args);
  });
  return { count: () => writes };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("amqp sink: socket writes per burst", () => {
  it("amqp_publishes_one_write_per_publish: 100 publishes at once take a handful of writes, all confirmed", async () => {
    const fx = await fixture("coalesce");
    await fx.declareExchange();
    await fx.bindQueue("#");
    const s = sink(uniqueName("coalesce"), { exchange: fx.exchange, max_in_flight: 1000 });
    // Connect first, so that only the burst's writes are counted.
    expect(await s.deliver(delivery({ body: randomBytes(16) }), signal())).toEqual({ ok: true });

    const writes = countBrokerWrites(5672);
    // 1 KiB bodies: each publish is over amqplib's 2 KiB single-chunk threshold, so two writes uncoalesced.
    const burst = Array.from({ length: 100 }, () => delivery({ body: randomBytes(1024) }));
    const results = await Promise.all(burst.map((d) => s.deliver(d, signal())));

    expect(results.every((r) => r.ok)).toBe(true);
    // The burst is gathered by amqplib's multiplexer in one or a few passes, each bounded by the socket's
    // high-water mark (16 KiB, some 7 publishes here): about 15 writes, where uncoalesced it was 200.
    expect(writes.count()).toBeGreaterThan(0);
    expect(writes.count()).toBeLessThanOrEqual(40);
    const landed = await fx.drain();
    expect(landed.length).toBe(101);
  });
});

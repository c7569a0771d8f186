// amqplib hands every frame chunk to the socket with its own write, so each publish costs one system call,
// two once method, header and body pass 2 KiB (its single-chunk threshold), which a queue message v1 with a
// 1 KiB body does. Its multiplexer already gathers every channel's chunks into one pass (scheduled with
// setImmediate); corking the socket for that pass turns the pass into one writev per 16 KiB (the pass stops
// at the socket's high-water mark and goes on at 'drain'), not one or two per publish. Nothing is held back
// past the pass, so no publish waits longer.
// This reaches into amqplib's internals (ChannelModel.connection.muxer); if their shape is not the one
// expected, nothing is changed and publishes go out as before.
import type { ChannelModel } from "amqplib";

interface CorkableStream {
  cork(): void;
  uncork(): void;
}

interface MuxShape {
  out: CorkableStream;
  _readIncoming: () => void;
}

function isMux(value: unknown): value is MuxShape {
  if (typeof value !== "object" || value === null) return false;
  const mux = value as { out?: unknown; _readIncoming?: unknown };
  const out = mux.out as { cork?: unknown; uncork?: unknown } | undefined;
  return (
    typeof mux._readIncoming === "function" &&
    typeof out === "object" &&
    out !== null &&
    typeof out.cork === "function" &&
    typeof out.uncork === "function"
  );
}

/**
 * Make each multiplexer pass of `model`'s connection one socket write; called once per connection, as
 * it opens. Returns whether it could (false: amqplib's internals are not the shape this knows, and
 * nothing was changed).
 */
export function coalesceFrameWrites(model: ChannelModel): boolean {
  const mux: unknown = (model as unknown as { connection?: { muxer?: unknown } }).connection?.muxer;
  if (!isMux(mux)) return false;
  const pass = mux._readIncoming.bind(mux);
  const out = mux.out;
  mux._readIncoming = () => {
    out.cork();
    try {
      pass();
    } finally {
      out.uncork();
    }
  };
  return true;
}
